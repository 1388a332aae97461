package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// positionRE matches a "file:line" or "file:line:col" reference inside a
// message, whose numbers change when lines move.
var positionRE = lazyre.New(`(\.[A-Za-z0-9]+):\d+(?::\d+)?`)

// fingerprintKey is what identifies a finding independently of where its
// lines are: the rule, the file, the component and the message with the
// positions it quotes removed; and the pipeline, when the file does not
// already say it.
func fingerprintKey(f Finding) string {
	msg := positionRE.ReplaceAllString(f.Message, "$1")
	parts := []string{f.Rule, f.File, f.Component, msg}
	if f.OutsidePipeline() {
		// A file outside the pipeline's directory (one that two topology
		// files include) or no file: two pipelines may report the same
		// finding there. A finding in a file of the pipeline's own
		// directory keeps the fingerprint it has in a run of that
		// pipeline alone.
		parts = append(parts, "pipeline", f.Pipeline)
	}
	return strings.Join(parts, "\x00")
}

// inDir reports whether the slash path file is under the directory dir,
// both as the display paths of one run ("." for the working directory).
// OutsidePipeline reports whether f names a pipeline whose directory does
// not hold f's file: a module or manifest that several pipelines share, so
// that each may report the same finding there.
func (f Finding) OutsidePipeline() bool {
	return f.Pipeline != "" && !inDir(f.File, f.Pipeline)
}

func inDir(file, dir string) bool {
	if file == "" {
		return false
	}
	if dir == "." {
		return !path.IsAbs(file) && file != ".." && !strings.HasPrefix(file, "../")
	}
	return strings.HasPrefix(file, strings.TrimSuffix(dir, "/")+"/")
}

// Fingerprints returns one fingerprint per finding, in the order of
// findings. A fingerprint does not depend on line or column, so it stays
// the same when code above the finding moves it; findings that would share
// one (the same rule and message twice in a file) are told apart by their
// order in the file. The same input always gives the same fingerprints.
func Fingerprints(findings []Finding) []string {
	order := make([]int, len(findings))
	for i := range order {
		order[i] = i
	}
	// Number equal keys in position order, whatever order findings is in.
	sort.SliceStable(order, func(i, j int) bool { return positionLess(findings[order[i]], findings[order[j]]) })
	seen := make(map[string]int)
	out := make([]string, len(findings))
	for _, i := range order {
		key := fingerprintKey(findings[i])
		n := seen[key]
		seen[key] = n + 1
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
		out[i] = hex.EncodeToString(sum[:16])
	}
	return out
}

// positionLess orders findings by file, line and column.
func positionLess(a, b Finding) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
