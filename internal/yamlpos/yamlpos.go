// Package yamlpos finds where a YAML syntax error is. The decoder names a
// line only, and often the line where the enclosing block began rather than
// the one that breaks it; Locate replays the decoder on growing prefixes of
// the source to find the first line and column at which the same error
// appears.
package yamlpos

import (
	"bytes"
	"errors"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/retrylint/retrylint/internal/lazyre"
)

var lineRE = lazyre.New(`^line (\d+): `)

// maxReplay caps the size of a source that is replayed (each replay is a
// binary search, a few dozen decodes: about a second for 1 MiB); a larger
// one keeps the decoder's line and the column of its first non-blank
// character.
const maxReplay = 1 << 20

// Message splits a decoder error into its line (0 when none is named) and
// the message without the "yaml: line N:" prefix.
func Message(err error) (int, string) {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n, strings.TrimSpace(msg[len(m[0]):])
	}
	return 0, strings.TrimSpace(msg)
}

// Locate returns the 1-based line and column of the syntax error err that
// decoding src gave, and the message without its position.
func Locate(src []byte, err error) (line, col int, msg string) {
	line, msg = Message(err)
	lines := strings.Split(string(src), "\n")
	fallback := func(n int) (int, int, string) {
		if n < 1 {
			n = 1
		}
		c := 1
		if n <= len(lines) {
			l := lines[n-1]
			c = utf8.RuneCountInString(l[:len(l)-len(strings.TrimLeft(l, " \t"))]) + 1
		}
		return n, c, msg
	}
	if len(src) > maxReplay || !sameError(string(src), msg) {
		return fallback(line)
	}
	// The shortest prefix of whole lines that fails with the same message:
	// once the breaking token is in, every longer prefix fails with it.
	n := sort.Search(len(lines), func(i int) bool {
		return sameError(strings.Join(lines[:i+1], "\n"), msg)
	}) + 1
	if n > len(lines) {
		return fallback(line)
	}
	base := strings.Join(lines[:n-1], "\n")
	if n > 1 {
		base += "\n"
	}
	l := lines[n-1]
	// The first character of that line with which it fails.
	var ends []int
	for i, r := range l {
		ends = append(ends, i+utf8.RuneLen(r))
	}
	c := sort.Search(len(ends), func(i int) bool { return sameError(base+l[:ends[i]], msg) })
	if c == len(ends) {
		return fallback(n)
	}
	if strings.HasPrefix(msg, "did not find expected key") || strings.HasPrefix(msg, "did not find expected '-' indicator") {
		// The line's first token is what breaks the block, though the
		// decoder notices only at its ":".
		return fallback(n)
	}
	if strings.HasSuffix(msg, "or ']'") || strings.HasSuffix(msg, "or '}'") {
		// An unclosed flow collection: point at its opening bracket when it
		// is on this line.
		if o := opener(l[:ends[c]]); o >= 0 {
			return n, utf8.RuneCountInString(l[:o]) + 1, msg
		}
	}
	return n, c + 1, msg
}

// opener is the byte offset of the last "[" or "{" in l that nothing
// closes, outside quotes; -1 when there is none.
func opener(l string) int {
	var open []int
	quote := byte(0)
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			open = append(open, i)
		case (c == ']' || c == '}') && len(open) > 0:
			open = open[:len(open)-1]
		}
	}
	if len(open) == 0 {
		return -1
	}
	return open[len(open)-1]
}

// sameError reports whether decoding src fails with message msg.
func sameError(src, msg string) bool {
	err := decode([]byte(src))
	if err == nil {
		return false
	}
	_, m := Message(err)
	return m == msg
}

// decode decodes every document of src; a panic in the decoder is an error.
func decode(src []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("panic")
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
