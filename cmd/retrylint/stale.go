package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/report"
	"github.com/retrylint/retrylint/topology"
)

// goFilesOf lists the Go files of pkgs as findings name them, relative to
// dir: the scope of the code half.
func goFilesOf(pkgs []*packages.Package, dir string) []string {
	var files []string
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			files = append(files, relPath(dir, f))
		}
	}
	return files
}

// manifestsOf lists the files g was read from, as findings name them: the
// scope of the topology half.
func manifestsOf(g *topology.Graph) []string {
	var files []string
	for _, c := range g.Components {
		files = append(files, c.Files...)
		if c.Pos.File != "" {
			files = append(files, c.Pos.File)
		}
	}
	for _, e := range g.Edges {
		if e.Pos.File != "" {
			files = append(files, e.Pos.File)
		}
	}
	return files
}

// staleInScope are the entries of stale that the run could have matched:
// of a file it read, or of a file that is gone. An entry of a file the
// run did not read (the other half's, a package not named) is not said.
func staleInScope(stale []report.BaselineEntry, scope []string) []report.BaselineEntry {
	read := make(map[string]bool, len(scope))
	for _, f := range scope {
		read[f] = true
	}
	var out []report.BaselineEntry
	for _, e := range stale {
		if read[e.File] || e.File != "" && gone(e.File) {
			out = append(out, e)
		}
	}
	return out
}

// gone reports whether file, relative to the working directory, no longer
// exists.
func gone(file string) bool {
	_, err := os.Lstat(file)
	return errors.Is(err, fs.ErrNotExist)
}

// warnStale says the entries of the baseline file that matched no finding.
func warnStale(w io.Writer, file string, stale []report.BaselineEntry) {
	if len(stale) == 0 {
		return
	}
	esc := report.EscapeText
	what := pluralize(len(stale), "entry matches", "entries match") + " no finding (fixed or removed); --write-baseline drops them"
	if len(stale) == 1 {
		what = "1 entry matches no finding (fixed or removed); --write-baseline drops it"
	}
	fmt.Fprintf(w, "retrylint: warning: %s: %s:\n", esc(file), what)
	for _, e := range stale {
		fmt.Fprintf(w, "  %s\n", esc(e.String()))
	}
}
