// Command realcode measures retrylint on labelled loops in public Go
// repositories: it runs retrylint (or go vet -vettool=retrylint) in every
// module that holds a labelled file, matches the findings against
// labels.tsv and prints true and false positives, false negatives, precision
// and recall per repository, per rule and overall.
//
// It needs checkouts of the labelled repositories and network access for
// their modules, so it is not part of the test suite: scripts/realcode.sh
// builds retrylint and runs it.
package main

import (
	"flag"
	"fmt"
	"github.com/retrylint/retrylint/eval/internal/checkout"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

type options struct {
	labels    string
	src       string
	mirrors   string
	retrylint string
	vet       bool
	out       string
	pkgs      string
	repos     string
	cached    bool
}

func main() {
	var o options
	fs := flag.NewFlagSet("realcode", flag.ContinueOnError)
	fs.StringVar(&o.labels, "labels", "eval/realcode/labels.tsv", "the labels `file`")
	fs.StringVar(&o.src, "src", "/work/realcode-src", "`directory` of checkouts, one per repository, named after the repository")
	fs.StringVar(&o.mirrors, "mirrors", "", "`directory` of bare mirrors (owner+name/repo); a missing checkout is extracted from its mirror at the labelled commit")
	fs.StringVar(&o.retrylint, "retrylint", "", "the retrylint `binary`")
	fs.BoolVar(&o.vet, "vet", false, "run the analyzers through go vet -vettool instead of retrylint code")
	fs.StringVar(&o.out, "out", "", "`directory` for the raw findings, details.tsv and outside.tsv (default: a new temporary directory)")
	fs.StringVar(&o.pkgs, "pkgs", "all", "what to analyse in each module: all (./...) or labelled (the packages of labelled files)")
	fs.StringVar(&o.repos, "repos", "", "comma-separated owner/name `list`: measure only these")
	fs.BoolVar(&o.cached, "cached", false, "reuse the findings an earlier run saved in -out instead of analysing again (to rescore edited labels)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if err := run(o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "realcode:", err)
		os.Exit(2)
	}
}

func run(o options, stdout, stderr io.Writer) error {
	if o.retrylint == "" {
		return fmt.Errorf("-retrylint is required")
	}
	if o.pkgs != "all" && o.pkgs != "labelled" {
		return fmt.Errorf("-pkgs %q: want all or labelled", o.pkgs)
	}
	f, err := os.Open(o.labels)
	if err != nil {
		return err
	}
	labels, err := parseLabels(o.labels, f)
	f.Close()
	if err != nil {
		return err
	}
	labels = keepRepos(labels, o.repos)
	if len(labels) == 0 {
		return fmt.Errorf("no labels to measure")
	}
	if o.out == "" {
		if o.out, err = os.MkdirTemp("", "realcode-"); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}

	var findings []finding
	regions := make([]span, len(labels))
	repos := repoOrder(labels)
	for _, repo := range repos {
		dir := filepath.Join(o.src, filepath.Base(repo.name))
		if err := checkout.Ensure(dir, repo.name, repo.commit, o.mirrors, stderr); err != nil {
			return err
		}
		if err := labelRegions(dir, labels, regions, repo.name); err != nil {
			return err
		}
	}
	if err := checkSilent(o.labels, labels, regions); err != nil {
		return err
	}
	for _, repo := range repos {
		dir := filepath.Join(o.src, filepath.Base(repo.name))
		fs, err := analyseRepo(o, dir, repo.name, labels, stderr)
		if err != nil {
			return err
		}
		findings = append(findings, fs...)
	}
	verdicts := score(labels, regions, findings)
	mode := "retrylint code"
	if o.vet {
		mode = "go vet -vettool=retrylint"
	}
	fmt.Fprintf(stdout, "%s, %s packages\n", mode, o.pkgs)
	printSummary(stdout, labels, regions, verdicts)
	if err := writeFile(filepath.Join(o.out, "details.tsv"), verdicts, func(x outcome) bool { return x != outside }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(o.out, "outside.tsv"), verdicts, func(x outcome) bool { return x == outside }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nTP, FP and FN: %s\nfindings outside labelled loops, to review: %s\n",
		filepath.Join(o.out, "details.tsv"), filepath.Join(o.out, "outside.tsv"))
	return nil
}

func writeFile(name string, vs []verdict, which func(outcome) bool) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	writeDetails(f, vs, which)
	return f.Close()
}

type repoAt struct{ name, commit string }

func repoOrder(labels []label) []repoAt {
	seen := map[string]bool{}
	var out []repoAt
	for _, l := range labels {
		if !seen[l.Repo] {
			seen[l.Repo] = true
			out = append(out, repoAt{l.Repo, l.Commit})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func keepRepos(labels []label, list string) []label {
	if list == "" {
		return labels
	}
	want := map[string]bool{}
	for _, r := range strings.Split(list, ",") {
		want[strings.TrimSpace(r)] = true
	}
	var out []label
	for _, l := range labels {
		if want[l.Repo] {
			out = append(out, l)
		}
	}
	return out
}

// labelRegions computes the loop region of every label of repo.
func labelRegions(dir string, labels []label, regions []span, repo string) error {
	byPath := map[string][]int{}
	for i, l := range labels {
		if l.Repo == repo {
			byPath[l.Path] = append(byPath[l.Path], i)
		}
	}
	for path, idx := range byPath {
		src, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
		if err != nil {
			return fmt.Errorf("%s: label at line %d: %v", repo, labels[idx[0]].Src, err)
		}
		lines := make([]int, len(idx))
		for j, i := range idx {
			lines[j] = labels[i].Line
		}
		rs, err := fileRegions(path, src, lines)
		if err != nil {
			return fmt.Errorf("%s: %v", repo, err)
		}
		for j, i := range idx {
			regions[i] = rs[j]
		}
	}
	return nil
}

// checkSilent reports a look-alike label ("-") whose loop also has expected
// findings: the two labels contradict each other.
func checkSilent(name string, labels []label, regions []span) error {
	for i, s := range labels {
		if s.Rule != silent {
			continue
		}
		for j, l := range labels {
			if l.Rule != silent && l.Repo == s.Repo && l.Path == s.Path && regions[j] == regions[i] {
				return fmt.Errorf("%s:%d: the loop of this look-alike has an expected finding at line %d (%s:%d)", name, s.Src, l.Src, l.Path, l.Line)
			}
		}
	}
	return nil
}
