// Command realtopo runs retrylint topology over real public repositories,
// listed with the verdict reviewed for each in repos.tsv, and says where a
// run's exit status or findings differ from that verdict.
//
// repos.tsv has one row a run, tab-separated: repo (owner/name), commit,
// path (inside the repository, "." for the root), ignore (comma-separated
// globs for .retrylint.yaml, or -), exit (the status the run must end
// with), findings (rule=count,…, or - for none), and a note with the
// verdict on those findings.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/eval/internal/checkout"
)

type row struct {
	repo, commit, path string
	ignore             []string
	exit               int
	findings           string // rule=count,… sorted by rule; "-" for none
	line               int
}

func main() {
	repos := flag.String("repos", "eval/realtopo/repos.tsv", "the runs and their verdicts")
	src := flag.String("src", "/work/realtopo-src", "checkouts, one directory a repository (owner+name)")
	mirrors := flag.String("mirrors", "", "bare mirrors DIR/owner+name/repo to extract missing checkouts from")
	bin := flag.String("retrylint", "retrylint", "the retrylint binary")
	flag.Parse()
	rows, err := readRows(*repos)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realtopo:", err)
		os.Exit(2)
	}
	diffs := 0
	fmt.Printf("%-50s %-28s %-5s %s\n", "REPOSITORY", "PATH", "EXIT", "FINDINGS")
	for _, r := range rows {
		dir := filepath.Join(*src, strings.Replace(r.repo, "/", "+", 1))
		if err := checkout.Ensure(dir, r.repo, r.commit, *mirrors, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "realtopo:", err)
			os.Exit(2)
		}
		code, got, stderr, err := run(*bin, dir, r)
		if err != nil {
			fmt.Fprintln(os.Stderr, "realtopo:", err)
			os.Exit(2)
		}
		status := "ok"
		if code != r.exit || got != r.findings {
			status = fmt.Sprintf("DIFF (want exit %d, %s)", r.exit, r.findings)
			diffs++
		}
		fmt.Printf("%-50s %-28s %-5d %s  %s\n", r.repo, r.path, code, got, status)
		if code == 2 {
			fmt.Printf("    %s\n", strings.TrimSpace(stderr))
		}
	}
	fmt.Printf("\n%d runs, %d differ from their reviewed verdict\n", len(rows), diffs)
	if diffs > 0 {
		os.Exit(1)
	}
}

// run runs retrylint topology on r.path in dir, with r's ignore globs in
// the checkout's .retrylint.yaml for the run (removed after it), and
// counts the findings by rule.
func run(bin, dir string, r row) (code int, findings, stderr string, err error) {
	cfg := filepath.Join(dir, ".retrylint.yaml")
	if _, err := os.Stat(cfg); err == nil {
		return 0, "", "", fmt.Errorf("%s already has a .retrylint.yaml; realtopo writes its own", dir)
	}
	var b strings.Builder
	b.WriteString("ignore:\n")
	for _, g := range r.ignore {
		fmt.Fprintf(&b, "  - %q\n", g)
	}
	if len(r.ignore) == 0 {
		b.WriteString("  []\n")
	}
	if err := os.WriteFile(cfg, []byte(b.String()), 0o644); err != nil {
		return 0, "", "", err
	}
	defer os.Remove(cfg)
	cmd := exec.Command(bin, "topology", "--format", "json", r.path)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		return 0, "", "", err
	}
	if code == 2 {
		return code, "-", errOut.String(), nil
	}
	var res struct{ Findings []struct{ Rule string } }
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return 0, "", "", fmt.Errorf("%s %s: %v", r.repo, r.path, err)
	}
	counts := map[string]int{}
	for _, f := range res.Findings {
		counts[f.Rule]++
	}
	return code, countText(counts), errOut.String(), nil
}

func countText(counts map[string]int) string {
	if len(counts) == 0 {
		return "-"
	}
	var parts []string
	for rule, n := range counts {
		parts = append(parts, fmt.Sprintf("%s=%d", rule, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func readRows(file string) ([]row, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseRows(file, f)
}

func parseRows(file string, in io.Reader) ([]row, error) {
	var rows []row
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "repo\t") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 6 {
			return nil, fmt.Errorf("%s:%d: want repo, commit, path, ignore, exit, findings[, note]; got %d fields", file, n, len(f))
		}
		r := row{repo: f[0], commit: f[1], path: f[2], line: n}
		if f[3] != "-" {
			r.ignore = strings.Split(f[3], ",")
		}
		if _, err := fmt.Sscan(f[4], &r.exit); err != nil || r.exit < 0 || r.exit > 2 {
			return nil, fmt.Errorf("%s:%d: exit %q: want 0, 1 or 2", file, n, f[4])
		}
		counts := map[string]int{}
		if f[5] != "-" {
			for _, kv := range strings.Split(f[5], ",") {
				var k string
				var v int
				rule, num, ok := strings.Cut(kv, "=")
				if _, err := fmt.Sscan(num, &v); !ok || err != nil || v <= 0 {
					return nil, fmt.Errorf("%s:%d: findings %q: want rule=count,…", file, n, kv)
				}
				k = rule
				counts[k] = v
			}
		}
		r.findings = countText(counts)
		rows = append(rows, r)
	}
	return rows, sc.Err()
}
