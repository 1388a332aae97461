package report

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// GitHub code scanning tracks an alert across commits by the
// partialFingerprints.primaryLocationLineHash of its result; its upload
// computes the hash itself when a result has none (github/codeql-action,
// fingerprints.ts), but an upload through the REST API does not. The
// hash of a line is a rolling hash of the lineHashWindow characters
// (UTF-16 code units) from the line's start, spaces and tabs left out,
// line ends read as "\n"; after the last character comes lineHashEOF,
// then zeros. Lines with the same hash are told apart by ":n", the
// count of that hash so far in the file.
const (
	lineHashWindow = 100
	lineHashMod    = 37
	lineHashEOF    = 65535
)

// lineHashes returns the primaryLocationLineHash of every line of src, the
// first line's first, as GitHub's upload computes it.
func lineHashes(src []byte) []string {
	h := newLineHasher()
	prevCR := false
	for i := 0; i < len(src); {
		r, size := decodeRune(src[i:])
		i += size
		for _, u := range utf16Units(r) {
			switch {
			case u == ' ' || u == '\t' || prevCR && u == '\n':
				prevCR = false
				continue
			case u == '\r':
				u, prevCR = '\n', true
			default:
				prevCR = false
			}
			h.add(u)
		}
	}
	h.add(lineHashEOF)
	return h.flush()
}

// lineHasher is the state of lineHashes: a window of the last characters,
// the line that starts at each (0 for none), and the hash of the window.
type lineHasher struct {
	window    [lineHashWindow]uint64
	lineAt    [lineHashWindow]int
	index     int
	hash      uint64
	firstMod  uint64 // lineHashMod to the power lineHashWindow
	line      int
	lineStart bool
	counts    map[uint64]int
	out       []string
}

func newLineHasher() *lineHasher {
	h := &lineHasher{firstMod: 1, lineStart: true, counts: map[uint64]int{}}
	for range lineHashWindow {
		h.firstMod *= lineHashMod
	}
	return h
}

// add takes in the next character (line ends already read as "\n").
func (h *lineHasher) add(u uint64) {
	if h.lineAt[h.index] != 0 {
		h.emit()
	}
	if h.lineStart {
		h.lineStart = false
		h.line++
		h.lineAt[h.index] = h.line
	}
	if u == '\n' {
		h.lineStart = true
	}
	h.roll(u)
}

// roll puts u in the window in place of the oldest character.
func (h *lineHasher) roll(u uint64) {
	begin := h.window[h.index]
	h.window[h.index] = u
	h.hash = lineHashMod*h.hash + u - h.firstMod*begin // modulo 2^64, as the upload's Long
	h.index = (h.index + 1) % lineHashWindow
}

// emit records the hash of the line that starts at the window's oldest
// character: the window holds its lineHashWindow characters.
func (h *lineHasher) emit() {
	h.counts[h.hash]++
	h.out = append(h.out, strconv.FormatUint(h.hash, 16)+":"+strconv.Itoa(h.counts[h.hash]))
	h.lineAt[h.index] = 0
}

// flush pads the input with zeros until every line's hash is out.
func (h *lineHasher) flush() []string {
	for range lineHashWindow {
		if h.lineAt[h.index] != 0 {
			h.emit()
		}
		h.roll(0)
	}
	return h.out
}

// utf16Units is r as UTF-16 code units: a surrogate pair beyond the Basic
// Multilingual Plane.
func utf16Units(r rune) []uint64 {
	if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError || r2 != utf8.RuneError {
		return []uint64{uint64(r1), uint64(r2)}
	}
	return []uint64{uint64(r)}
}

// decodeRune decodes the first character of b as a UTF-8 decoder of the
// web platform does (and so the upload): an invalid sequence is one
// U+FFFD for its longest prefix that could start a valid one, not one per
// byte.
func decodeRune(b []byte) (rune, int) {
	r, size := utf8.DecodeRune(b)
	if r != utf8.RuneError || size != 1 {
		return r, size
	}
	return utf8.RuneError, maximalSubpart(b)
}

// maximalSubpart is the length of the longest prefix of b that starts a
// well-formed UTF-8 sequence, at least 1 (Unicode's "maximal subpart").
func maximalSubpart(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	}
	n := 1
	for n <= need && n < len(b) && b[n] >= lo && b[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}
