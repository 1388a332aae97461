package model

import "testing"

func TestFingerprintsIgnoreMovedLines(t *testing.T) {
	before := []Finding{
		{Rule: "fixed-sleep", File: "a.go", Line: 10, Column: 3, Message: "waits 1s"},
		{Rule: "job-max-retries", File: "job.yaml", Line: 15, Column: 11, Message: "job has maxRetries 3 (see wf.yaml:6:17)", Component: "job"},
	}
	after := []Finding{
		{Rule: "fixed-sleep", File: "a.go", Line: 14, Column: 5, Message: "waits 1s"},
		{Rule: "job-max-retries", File: "job.yaml", Line: 16, Column: 11, Message: "job has maxRetries 3 (see wf.yaml:8:17)", Component: "job"},
	}
	b, a := Fingerprints(before), Fingerprints(after)
	for i := range b {
		if b[i] != a[i] {
			t.Errorf("finding %d: fingerprint changed when its lines moved: %s → %s", i, b[i], a[i])
		}
	}
	if b[0] == b[1] {
		t.Error("two different findings share a fingerprint")
	}
}

func TestFingerprintsTellRepeatsApart(t *testing.T) {
	fs := []Finding{
		{Rule: "fixed-sleep", File: "a.go", Line: 20, Message: "waits 1s"},
		{Rule: "fixed-sleep", File: "a.go", Line: 10, Message: "waits 1s"},
	}
	got := Fingerprints(fs)
	if got[0] == got[1] {
		t.Fatal("the same rule and message twice in a file share a fingerprint")
	}
	// The numbering follows the file, not the order of the slice.
	swapped := Fingerprints([]Finding{fs[1], fs[0]})
	if swapped[0] != got[1] || swapped[1] != got[0] {
		t.Error("fingerprints depend on the order of the findings")
	}
}

func TestFingerprintsChangeWithTheFinding(t *testing.T) {
	base := Finding{Rule: "amplification", File: "t.yaml", Line: 5, Message: "app runs up to 3 times"}
	for name, f := range map[string]Finding{
		"rule":    {Rule: "multiple-retry-layers", File: "t.yaml", Line: 5, Message: base.Message},
		"file":    {Rule: base.Rule, File: "u.yaml", Line: 5, Message: base.Message},
		"message": {Rule: base.Rule, File: "t.yaml", Line: 5, Message: "app runs up to 12 times"},
	} {
		if Fingerprints([]Finding{f})[0] == Fingerprints([]Finding{base})[0] {
			t.Errorf("another %s, the same fingerprint", name)
		}
	}
}
