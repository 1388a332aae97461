package main

import (
	"sort"
	"strings"
	"testing"
)

const commit = "301026e58c619e63d09c0ec411012e54c0124b03"

func row(path, line, rule string) string {
	return strings.Join([]string{"a/b", commit, path, line, rule, "a note"}, "\t")
}

func TestParseLabels(t *testing.T) {
	good := strings.Join([]string{strings.Join(header, "\t"), row("x.go", "12", "fixed-sleep"), "", "# a comment", row("x.go", "30", "-")}, "\n")
	ls, err := parseLabels("labels.tsv", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 || ls[0].Line != 12 || ls[1].Rule != silent || ls[1].Src != 5 {
		t.Errorf("got %+v", ls)
	}

	// A repository too large for a mirror is labelled at a module version.
	tagged := strings.Join(header, "\t") + "\n" + strings.Replace(row("x.go", "12", "-"), commit, "v1.22.4", 1)
	if ls, err := parseLabels("labels.tsv", strings.NewReader(tagged)); err != nil || ls[0].Commit != "v1.22.4" {
		t.Errorf("module version: got %+v, %v", ls, err)
	}

	bad := map[string]string{
		"wrong header":  "repo\tpath\n",
		"unknown rule":  strings.Join(header, "\t") + "\n" + row("x.go", "12", "fixed-wait"),
		"bad line":      strings.Join(header, "\t") + "\n" + row("x.go", "0", "-"),
		"short row":     strings.Join(header, "\t") + "\na/b\tx.go",
		"duplicate row": strings.Join(header, "\t") + "\n" + row("x.go", "12", "-") + "\n" + row("x.go", "12", "-"),
		"empty":         "",
		"short commit":  strings.Join(header, "\t") + "\n" + strings.Replace(row("x.go", "12", "-"), commit, commit[:12], 1),
		"branch name":   strings.Join(header, "\t") + "\n" + strings.Replace(row("x.go", "12", "-"), commit, "main", 1),
		"partial tag":   strings.Join(header, "\t") + "\n" + strings.Replace(row("x.go", "12", "-"), commit, "v1.22", 1),
	}
	for name, in := range bad {
		if _, err := parseLabels("labels.tsv", strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "labels.tsv:") {
			t.Errorf("%s: error %q does not name the file and line", name, err)
		}
	}
}

const loops = `package p

func f() {
	for i := 0; i < 3; i++ {
		sleep()
	}
	for {
		for range 3 {
			sleep()
		}
	}
}

func helper() {
	sleep()
}
`

func TestRegions(t *testing.T) {
	rs, err := fileRegions("p.go", []byte(loops), []int{5, 9, 7, 15})
	if err != nil {
		t.Fatal(err)
	}
	want := []span{{3, 6}, {7, 10}, {6, 11}, {13, 16}}
	for i := range want {
		if rs[i] != want[i] {
			t.Errorf("region of line %d: got %v, want %v", []int{5, 9, 7, 15}[i], rs[i], want[i])
		}
	}
}

func TestScore(t *testing.T) {
	labels := []label{
		{Repo: "a/b", Path: "p.go", Line: 4, Rule: "unbounded-retry"},
		{Repo: "a/b", Path: "p.go", Line: 5, Rule: "fixed-sleep"},
		{Repo: "a/b", Path: "p.go", Line: 7, Rule: silent},
		{Repo: "a/b", Path: "p.go", Line: 15, Rule: "no-jitter"},
	}
	regions := []span{{3, 6}, {3, 6}, {6, 11}, {13, 16}}
	findings := []finding{
		{Repo: "a/b", Path: "p.go", Line: 5, Rule: "unbounded-retry"}, // a line off: matches
		{Repo: "a/b", Path: "p.go", Line: 5, Rule: "fixed-sleep"},
		{Repo: "a/b", Path: "p.go", Line: 5, Rule: "fixed-sleep"}, // repeated: dropped
		{Repo: "a/b", Path: "p.go", Line: 9, Rule: "fixed-sleep"}, // in the silent loop
		{Repo: "a/b", Path: "p.go", Line: 20, Rule: "fixed-sleep"},
		{Repo: "a/b", Path: "q.go", Line: 5, Rule: "fixed-sleep"},
	}
	var got tally
	for _, v := range score(labels, regions, findings) {
		got.add(v.Outcome)
	}
	if want := (tally{TP: 2, FP: 1, FN: 1, Outside: 2}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if loops, bad := loopCounts(labels, regions); loops != 3 || bad != 2 {
		t.Errorf("loops: got %d (%d with defects), want 3 (2)", loops, bad)
	}
}

func TestParseVetJSON(t *testing.T) {
	out := `# example.com/p
{
	"example.com/p": {
		"fixedsleep": [
			{"posn": "/src/m/p/p.go:12:3", "message": "retry loop waits a constant 1s"}
		],
		"nocap": {"error": "boom"},
		"unclassifiedretry": [
			{"category": "retry-permanent", "posn": "/src/m/q.go:3:1", "message": "retry-permanent: retries 401"}
		]
	}
}
`
	fs, err := parseVetJSON([]byte(out), "/src/m")
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	if len(fs) != 2 || fs[0].Path != "p/p.go" || fs[0].Line != 12 || fs[0].Rule != "fixed-sleep" ||
		fs[1].Rule != "retry-permanent" || fs[1].Message != "retries 401" {
		t.Errorf("got %+v", fs)
	}
}

func TestRawRoundTrip(t *testing.T) {
	name := t.TempDir() + "/raw.tsv"
	want := []finding{{Path: "a/b.go", Line: 7, Rule: "no-cap", Message: "grows: without a cap"}}
	if err := saveRaw(name, want); err != nil {
		t.Fatal(err)
	}
	got, err := loadRaw(name)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != want[0] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestPkgDir(t *testing.T) {
	for _, c := range []struct{ dir, mod, want string }{
		{".", ".", "."},
		{"internal/pool", ".", "./internal/pool"},
		{".github/workflows", ".", "./.github/workflows"},
		{"contrib/x", "contrib/x", "."},
		{"contrib/x/sub", "contrib/x", "./sub"},
	} {
		if got := pkgDir(c.dir, c.mod); got != c.want {
			t.Errorf("pkgDir(%q, %q) = %q, want %q", c.dir, c.mod, got, c.want)
		}
	}
}
