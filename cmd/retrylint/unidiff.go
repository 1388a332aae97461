package main

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// diffContext is how many unchanged lines a hunk shows around a change.
const diffContext = 3

// unifiedDiff is the change that edits (sorted, disjoint) make to old, as
// "diff -u" and git write it, with a/name and b/name: "git apply" and
// "patch -p1" take it. Each edit changes the whole lines it touches.
func unifiedDiff(name string, old []byte, edits []edit) string {
	lines := splitLines(old)
	starts := make([]int, len(lines)+1) // offset of each line, and the end
	for i, l := range lines {
		starts[i+1] = starts[i] + len(l)
	}
	lineAt := func(off int) int { // the line holding byte off
		return sort.Search(len(lines), func(i int) bool { return starts[i+1] > off })
	}
	// Changes: runs of whole old lines and what replaces them.
	type change struct {
		from, to int // old lines [from, to)
		new      []string
	}
	var changes []change
	for i := 0; i < len(edits); {
		from := lineAt(edits[i].start)
		to := max(from+1, lineAt(max(edits[i].end-1, edits[i].start))+1)
		j := i + 1
		for j < len(edits) && lineAt(edits[j].start) < to {
			to = max(to, lineAt(max(edits[j].end-1, edits[j].start))+1)
			j++
		}
		to = min(to, len(lines))
		from = min(from, to) // an insertion at the end
		var b bytes.Buffer
		at := starts[from]
		for _, e := range edits[i:j] {
			b.Write(old[at:e.start])
			b.WriteString(e.text)
			at = e.end
		}
		b.Write(old[at:starts[to]])
		changes = append(changes, change{from, to, splitLines(b.Bytes())})
		i = j
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	delta := 0 // new line number minus old, before the hunk
	for i := 0; i < len(changes); {
		j := i + 1
		for j < len(changes) && changes[j].from-changes[j-1].to <= 2*diffContext {
			j++
		}
		first, last := max(changes[i].from-diffContext, 0), min(changes[j-1].to+diffContext, len(lines))
		var body strings.Builder
		oldN, newN := 0, 0
		at := first
		for _, c := range changes[i:j] {
			for ; at < c.from; at++ {
				writeDiffLine(&body, ' ', lines[at])
				oldN++
				newN++
			}
			for ; at < c.to; at++ {
				writeDiffLine(&body, '-', lines[at])
				oldN++
			}
			for _, l := range c.new {
				writeDiffLine(&body, '+', l)
				newN++
			}
		}
		for ; at < last; at++ {
			writeDiffLine(&body, ' ', lines[at])
			oldN++
			newN++
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n%s", hunkRange(first, oldN), hunkRange(first+delta, newN), body.String())
		for _, c := range changes[i:j] {
			delta += len(c.new) - (c.to - c.from)
		}
		i = j
	}
	return out.String()
}

// hunkRange is a hunk's "start,count", start 1-based, or the line before
// for an empty range.
func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// writeDiffLine writes one line of a hunk; a last line without a newline
// is marked as diff marks it.
func writeDiffLine(b *strings.Builder, mark byte, line string) {
	b.WriteByte(mark)
	b.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}

// splitLines splits text after each newline; the last line may lack one.
func splitLines(text []byte) []string {
	var lines []string
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		lines = append(lines, string(text[:i]))
		text = text[i:]
	}
	return lines
}
