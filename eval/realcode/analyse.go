package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// moduleOf returns the directory, relative to the repository root, of the
// nearest go.mod above the file at rel ("." for the root).
func moduleOf(root, rel string) (string, error) {
	dir := path.Dir(rel)
	for {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), "go.mod")); err == nil {
			return dir, nil
		}
		if dir == "." {
			return "", fmt.Errorf("%s: no go.mod above %s", root, rel)
		}
		dir = path.Dir(dir)
	}
}

// modulePackages maps each module holding a labelled file of repo to the
// package directories (relative to the module) of those files.
func modulePackages(root, repo string, labels []label) (map[string][]string, error) {
	out := map[string][]string{}
	seen := map[string]bool{}
	for _, l := range labels {
		if l.Repo != repo {
			continue
		}
		mod, err := moduleOf(root, l.Path)
		if err != nil {
			return nil, err
		}
		pkg := pkgDir(path.Dir(l.Path), mod)
		if !seen[mod+"\x00"+pkg] {
			seen[mod+"\x00"+pkg] = true
			out[mod] = append(out[mod], pkg)
		}
	}
	for _, pkgs := range out {
		sort.Strings(pkgs)
	}
	return out, nil
}

// pkgDir is the package directory dir (relative to the repository) as a
// pattern relative to the module rooted at mod: "./sub", or "." for the
// module's root. A directory of the root module keeps its leading dot
// (.github/workflows).
func pkgDir(dir, mod string) string {
	rel := dir
	if mod != "." {
		rel = strings.TrimPrefix(strings.TrimPrefix(dir, mod), "/")
	}
	if rel == "" || rel == "." {
		return "."
	}
	return "./" + rel
}

// analyseRepo runs the analyzers in every module of repo that holds a
// labelled file and returns the findings, paths relative to the repository.
func analyseRepo(o options, root, repo string, labels []label, stderr io.Writer) ([]finding, error) {
	mods, err := modulePackages(root, repo, labels)
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(mods))
	for m := range mods {
		names = append(names, m)
	}
	sort.Strings(names)
	var all []finding
	for _, mod := range names {
		dir := filepath.Join(root, filepath.FromSlash(mod))
		patterns := []string{"./..."}
		if o.pkgs == "labelled" {
			patterns = mods[mod]
		}
		raw := filepath.Join(o.out, strings.ReplaceAll(repo+"/"+mod, "/", "_")+".tsv")
		if o.cached {
			if fs, err := loadRaw(raw); err == nil {
				fmt.Fprintf(stderr, "%s %s: findings of an earlier run, %s\n", repo, mod, raw)
				all = append(all, inRepo(fs, repo, mod)...)
				continue
			}
		}
		fmt.Fprintf(stderr, "%s %s: %s\n", repo, mod, strings.Join(patterns, " "))
		fs, err := analyse(o, dir, patterns, stderr)
		if err != nil && o.pkgs == "all" {
			fmt.Fprintf(stderr, "  %v\n  retrying with the labelled packages only\n", err)
			fs, err = analyse(o, dir, mods[mod], stderr)
		}
		if err != nil {
			fmt.Fprintf(stderr, "  %v: its labels count as missed\n", err)
			continue
		}
		if err := saveRaw(raw, fs); err != nil {
			return nil, err
		}
		all = append(all, inRepo(fs, repo, mod)...)
	}
	return all, nil
}

// inRepo makes the paths of a module's findings relative to the repository.
func inRepo(fs []finding, repo, mod string) []finding {
	out := make([]finding, 0, len(fs))
	for _, f := range fs {
		f.Repo = repo
		f.Path = path.Clean(path.Join(mod, f.Path))
		out = append(out, f)
	}
	return out
}

// loadRaw reads the findings saveRaw wrote.
func loadRaw(name string) ([]finding, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var fs []finding
	for i, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		colon := strings.LastIndex(f[0], ":")
		if len(f) != 3 || colon < 0 {
			return nil, fmt.Errorf("%s:%d: not a saved finding", name, i+1)
		}
		loc := f[0][:colon]
		n, err := strconv.Atoi(f[0][colon+1:])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: not a saved finding", name, i+1)
		}
		fs = append(fs, finding{Path: loc, Line: n, Rule: f[1], Message: f[2]})
	}
	return fs, nil
}

func saveRaw(name string, fs []finding) error {
	var b bytes.Buffer
	for _, f := range fs {
		fmt.Fprintf(&b, "%s:%d\t%s\t%s\n", f.Path, f.Line, f.Rule, f.Message)
	}
	return os.WriteFile(name, b.Bytes(), 0o644)
}

// analyse runs retrylint code (or go vet) in dir over the patterns and
// returns the findings, paths relative to dir.
func analyse(o options, dir string, patterns []string, stderr io.Writer) ([]finding, error) {
	if o.vet {
		return analyseVet(o, dir, patterns)
	}
	args := append([]string{"code", "--format", "json", "--fail-on", "never"}, patterns...)
	cmd := exec.Command(o.retrylint, args...)
	cmd.Dir = dir
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("retrylint code: %v\n%s", err, tail(errb.String(), 15))
	}
	return parseReport(out)
}

func parseReport(out []byte) ([]finding, error) {
	var rep struct {
		Findings []struct {
			Rule    string `json:"rule"`
			Message string `json:"message"`
			File    string `json:"file"`
			Line    int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("reading the JSON report: %v", err)
	}
	var fs []finding
	for _, f := range rep.Findings {
		fs = append(fs, finding{Path: filepath.ToSlash(f.File), Line: f.Line, Rule: f.Rule, Message: f.Message})
	}
	return fs, nil
}

// analyseVet runs go vet -vettool -json and reads its diagnostics. A
// diagnostic's category is its rule; without one, the analyzer of each rule is
// named after it without dashes.
func analyseVet(o options, dir string, patterns []string) ([]finding, error) {
	args := append([]string{"vet", "-vettool=" + o.retrylint, "-json"}, patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var outb, errb bytes.Buffer
	cmd.Stdout = &outb // the JSON; older go commands wrote it to stderr
	cmd.Stderr = &errb
	runErr := cmd.Run()
	fs, perr := parseVetJSON(append(outb.Bytes(), errb.Bytes()...), dir)
	if runErr != nil && len(fs) == 0 {
		return nil, fmt.Errorf("go vet: %v\n%s", runErr, tail(errb.String(), 15))
	}
	return fs, perr
}

var posn = regexp.MustCompile(`^(.*):(\d+):(\d+)$`)

func parseVetJSON(out []byte, dir string) ([]finding, error) {
	byAnalyzer := map[string]string{}
	for _, r := range rules {
		byAnalyzer[strings.ReplaceAll(r, "-", "")] = r
	}
	// go vet -json prints "# package" lines and one JSON object per package.
	var body bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		if line := sc.Text(); !strings.HasPrefix(line, "#") {
			body.WriteString(line + "\n")
		}
	}
	dec := json.NewDecoder(&body)
	var fs []finding
	for {
		var obj map[string]map[string]json.RawMessage
		if err := dec.Decode(&obj); err == io.EOF {
			break
		} else if err != nil {
			return fs, nil // the rest is go vet's own error text
		}
		for _, analyzers := range obj {
			for name, raw := range analyzers {
				var diags []struct {
					Category string `json:"category"`
					Posn     string `json:"posn"`
					Message  string `json:"message"`
				}
				if json.Unmarshal(raw, &diags) != nil {
					continue // {"error": ...}
				}
				for _, d := range diags {
					rule := d.Category
					if !knownRule(rule) {
						if rule = byAnalyzer[name]; rule == "" {
							continue
						}
					}
					m := posn.FindStringSubmatch(d.Posn)
					if m == nil {
						continue
					}
					file := m[1]
					if filepath.IsAbs(file) {
						if rel, err := filepath.Rel(dir, file); err == nil {
							file = rel
						}
					}
					line, _ := strconv.Atoi(m[2])
					msg := strings.TrimPrefix(d.Message, rule+": ")
					fs = append(fs, finding{Path: filepath.ToSlash(file), Line: line, Rule: rule, Message: msg})
				}
			}
		}
	}
	return fs, nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "  " + strings.Join(lines, "\n  ")
}
