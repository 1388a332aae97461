package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSARIFForCodeScanning: the SARIF of a code run is what GitHub code
// scanning tracks alerts by without its own upload step: every result has
// a primaryLocationLineHash, results on one line share it, the run says
// its columns are UTF-16 code units, and a finding about a loop covers
// the loop's header, not a point.
func TestSARIFForCodeScanning(t *testing.T) {
	r := runCmd(t, reportRoot, "code", "--format", "sarif", "./examples/payment")
	var log struct {
		Runs []struct {
			ColumnKind string
			Results    []struct {
				RuleID              string
				PartialFingerprints map[string]string
				Locations           []struct {
					PhysicalLocation struct {
						Region struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil || r.code != 1 {
		t.Fatalf("exit %d, %v\n%s", r.code, err, r.stderr)
	}
	run := log.Runs[0]
	if run.ColumnKind != "utf16CodeUnits" {
		t.Errorf("columnKind %q, want utf16CodeUnits", run.ColumnKind)
	}
	src, err := os.ReadFile(filepath.Join(reportRoot, "examples", "payment", "payment.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	hashRE := regexp.MustCompile(`^[0-9a-f]{1,16}:[1-9][0-9]*$`)
	byLine := map[int]string{}
	loops := 0
	for _, res := range run.Results {
		reg := res.Locations[0].PhysicalLocation.Region
		h := res.PartialFingerprints["primaryLocationLineHash"]
		if !hashRE.MatchString(h) {
			t.Errorf("%s at line %d: primaryLocationLineHash %q", res.RuleID, reg.StartLine, h)
		}
		if prev, ok := byLine[reg.StartLine]; ok && prev != h {
			t.Errorf("line %d has two hashes, %q and %q", reg.StartLine, prev, h)
		}
		byLine[reg.StartLine] = h
		text := lines[reg.StartLine-1]
		if !strings.HasPrefix(text[reg.StartColumn-1:], "for ") {
			continue
		}
		loops++
		// The header: from "for" to the end of its clauses, before "{".
		want := strings.Index(text, " {") + 1
		if reg.EndLine != reg.StartLine || reg.EndColumn != want {
			t.Errorf("%s at the loop of line %d: region %+v, want it to end at column %d, the end of %q", res.RuleID, reg.StartLine, reg, want, strings.TrimSpace(text))
		}
	}
	if loops < 2 {
		t.Errorf("%d results at a loop, want the two loops of payment.go", loops)
	}
}
