package main

import (
	"strings"
	"testing"
)

func TestParseRows(t *testing.T) {
	rows, err := parseRows("repos.tsv", strings.NewReader("# comment\nrepo\tcommit\tpath\tignore\texit\tfindings\tnote\n"+
		"a/b\tc0ffee\t.\tpkg/test/**,x/*\t1\tunbounded-redelivery=2,job-max-retries=1\tnote\n"+
		"c/d\tbeef\tsub\t-\t0\t-\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	r := rows[0]
	if r.repo != "a/b" || r.path != "." || len(r.ignore) != 2 || r.exit != 1 || r.findings != "job-max-retries=1,unbounded-redelivery=2" {
		t.Errorf("row %+v", r)
	}
	if rows[1].ignore != nil || rows[1].findings != "-" {
		t.Errorf("row %+v", rows[1])
	}
	for _, bad := range []string{"a/b\tc\t.\t-\t3\t-\n", "a/b\tc\t.\t-\t1\tjob-max-retries\n", "a/b\tc\t.\t-\n"} {
		if _, err := parseRows("repos.tsv", strings.NewReader(bad)); err == nil || !strings.HasPrefix(err.Error(), "repos.tsv:1:") {
			t.Errorf("%q: error %v, want one at repos.tsv:1", bad, err)
		}
	}
}
