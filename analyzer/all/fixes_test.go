package all_test

import (
	"bytes"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/packages"
)

// quiet swallows what analysistest says about want comments: the rules'
// own tests check those; here only the fixes count.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// fixTree is one analysistest tree: a GOPATH-style testdata directory or
// a module, and the packages to analyse there.
type fixTree struct {
	name     string // the analyzer, or the module of the combined tests
	dir      string
	patterns []string
	module   bool
}

// fixTrees are the testdata of every analyzer: each GOPATH tree's
// top-level directories, and the modules of the combined tests.
func fixTrees(t *testing.T) []fixTree {
	t.Helper()
	var trees []fixTree
	dirs, err := filepath.Glob(filepath.Join("..", "*", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		entries, _ := os.ReadDir(filepath.Join(dir, "src"))
		var patterns []string
		for _, e := range entries {
			if e.IsDir() {
				patterns = append(patterns, e.Name()+"/...")
			}
		}
		if len(patterns) > 0 {
			trees = append(trees, fixTree{name: filepath.Base(filepath.Dir(dir)), dir: dir, patterns: patterns})
		}
	}
	for _, module := range []string{"services", "platform", "shapes"} {
		trees = append(trees, fixTree{name: "all-" + module, dir: filepath.Join("testdata", module), patterns: []string{"./..."}, module: true})
	}
	return trees
}

// TestEverySuggestedFixCompiles applies every suggested fix of every rule
// to every analyzer's testdata and type-checks the result: a fix that
// breaks the build fails here, whatever its own golden file says.
func TestEverySuggestedFixCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses and type-checks every testdata tree")
	}
	fixed, ran := 0, 0
	trees := fixTrees(t)
	for _, tree := range trees {
		t.Run(tree.name, func(t *testing.T) {
			ran++
			dir, err := filepath.Abs(tree.dir)
			if err != nil {
				t.Fatal(err)
			}
			results := analysistest.Run(quiet{}, dir, every, tree.patterns...)
			overlay, err := applyAll(results)
			if err != nil {
				t.Fatal(err)
			}
			fixed += len(overlay)
			for _, e := range typeErrors(t, dir, tree, overlay) {
				t.Errorf("after the suggested fixes: %s", e)
			}
		})
	}
	if ran == len(trees) && fixed == 0 {
		t.Error("no testdata file has a suggested fix: the test checks nothing")
	}
}

// applyAll applies the first suggested fix of every diagnostic and returns
// the fixed content of each file changed. The same fix reported twice (a
// package and its test variant) is applied once; fixes that overlap are
// an error.
func applyAll(results []*analysistest.Result) (map[string][]byte, error) {
	type edit struct {
		start, end int
		text       string
	}
	edits := make(map[string][]edit)
	for _, r := range results {
		if r.Pass == nil {
			continue
		}
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) == 0 {
				continue
			}
			for _, te := range d.SuggestedFixes[0].TextEdits {
				f := r.Pass.Fset.File(te.Pos)
				e := edit{f.Offset(te.Pos), f.Offset(textEnd(te)), string(te.NewText)}
				if !slices.Contains(edits[f.Name()], e) {
					edits[f.Name()] = append(edits[f.Name()], e)
				}
			}
		}
	}
	out := make(map[string][]byte)
	for file, es := range edits {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		slices.SortFunc(es, func(a, b edit) int { return a.start - b.start })
		var b bytes.Buffer
		at := 0
		for _, e := range es {
			if e.start < at {
				return nil, fmt.Errorf("%s: suggested fixes overlap at offset %d", file, e.start)
			}
			b.Write(src[at:e.start])
			b.WriteString(e.text)
			at = e.end
		}
		b.Write(src[at:])
		out[file] = b.Bytes()
	}
	return out, nil
}

func textEnd(te analysis.TextEdit) token.Pos {
	if te.End.IsValid() {
		return te.End
	}
	return te.Pos
}

// typeErrors loads the packages of the fixed files with the fixed files in
// place of the originals and returns their parse and type errors.
func typeErrors(t *testing.T, dir string, tree fixTree, overlay map[string][]byte) []string {
	t.Helper()
	var patterns []string
	for file := range overlay {
		pkg := filepath.Dir(file)
		if tree.module {
			rel, _ := filepath.Rel(dir, pkg)
			pkg = "./" + filepath.ToSlash(rel)
		} else {
			rel, _ := filepath.Rel(filepath.Join(dir, "src"), pkg)
			pkg = filepath.ToSlash(rel)
		}
		if !slices.Contains(patterns, pkg) {
			patterns = append(patterns, pkg)
		}
	}
	if len(patterns) == 0 {
		return nil
	}
	env := []string{"GOPATH=" + dir, "GO111MODULE=off", "GOWORK=off"}
	if tree.module {
		env = []string{"GO111MODULE=on", "GOPROXY=off", "GOWORK=off"}
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode:    packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Dir:     dir,
		Tests:   true,
		Env:     append(os.Environ(), env...),
		Overlay: overlay,
	}, patterns...)
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, strings.TrimPrefix(e.Error(), dir+string(filepath.Separator)))
		}
	}
	return errs
}
