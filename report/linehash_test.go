package report

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLineHashes checks lineHashes against the values of the algorithm
// GitHub's upload computes for primaryLocationLineHash (the test vectors
// of github/codeql-action's fingerprints.test.ts): the same text gives the
// same hashes, so that code scanning keeps a result's alert.
func TestLineHashes(t *testing.T) {
	after := []string{"e9496ae3ebfced30:1", "fb7c023a8b9ccb3f:1", "ce8ba1a563dcdaca:1", "e20e36e16fcb0cc8:1", "b3edc88f2938467e:1", "c8e28b0b4002a3a0:1", "c129715d7a2bc9a3:1"}
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"", []string{"c129715d7a2bc9a3:1"}},
		{" a\nb\n  \t\tc\n d", []string{"271789c17abda88f:1", "54703d4cd895b18:1", "180aee12dab6264:1", "a23a3dc5e078b07b:1"}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End", []string{"8b7cf3e952e7aeb2:1", "b1ae1287ec4718d9:1", "bff680108adb0fcc:1", "c6805c5e1288b612:1", "b86d3392aea1be30:1", "e6ceba753e1a442:1"}},
		{" hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n", after},
		{" hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r", after},
		{" hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n", after},
		{" hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n", after},
		{strings.Repeat("Lorem ipsum dolor sit amet.\n", 10), []string{
			"a7f2ff13bc495cf2:1", "a7f2ff13bc495cf2:2", "a7f2ff13bc495cf2:3", "a7f2ff13bc495cf2:4", "a7f2ff13bc495cf2:5",
			"a7f2ff13bc495cf2:6", "a7f2ff1481e87703:1", "a9cf91f7bbf1862b:1", "55ec222b86bcae53:1", "cc97dc7b1d7d8f7b:1", "c129715d7a2bc9a3:1"}},
	} {
		if got := lineHashes([]byte(tc.src)); !slices.Equal(got, tc.want) {
			t.Errorf("lineHashes(%q) =\n%q\nwant\n%q", tc.src, got, tc.want)
		}
	}
}

// TestLineHashesCountUTF16 hashes text beyond ASCII by its UTF-16 code
// units, as the upload reads the file: a character outside the Basic
// Multilingual Plane is two of them (a surrogate pair), and a maximal
// invalid UTF-8 sequence one U+FFFD. The hash of a line is the polynomial
// of the 100 units from its start, spaces and tabs left out, then the end
// of the file (65535) and zeros.
func TestLineHashesCountUTF16(t *testing.T) {
	for _, tc := range []struct {
		src   string
		units []uint64 // of the first line, to the end of the file
	}{
		{"a\U0001F600 b\n", []uint64{'a', 0xD83D, 0xDE00, 'b', '\n'}},
		{"é\t\u4e16\n", []uint64{0xE9, 0x4E16, '\n'}},
		{"x\xe2\x82y\xff\n", []uint64{'x', 0xFFFD, 'y', 0xFFFD, '\n'}},
	} {
		units := append(tc.units, 65535)
		var h uint64
		for i := range 100 {
			var u uint64
			if i < len(units) {
				u = units[i]
			}
			h = h*37 + u
		}
		want := strconv.FormatUint(h, 16) + ":1"
		if got := lineHashes([]byte(tc.src)); len(got) == 0 || got[0] != want {
			t.Errorf("lineHashes(%q)[0] = %q, want %q", tc.src, got, want)
		}
	}
}
