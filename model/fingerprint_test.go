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

// TestFingerprintsTellPipelinesApart: the same finding in a file two
// pipelines share, or without a file, is two findings with two
// fingerprints that do not depend on each other; a finding in a file of
// its pipeline's own directory, and any finding of a run of one pipeline,
// keeps the fingerprint it had before findings named their pipeline.
func TestFingerprintsTellPipelinesApart(t *testing.T) {
	shared := Finding{Rule: "amplification", File: "common/job.yaml", Line: 5, Message: "job runs up to 9 times", Component: "job"}
	prod, stg := shared, shared
	prod.Pipeline, stg.Pipeline = "envs/prod", "envs/stg"
	both := Fingerprints([]Finding{prod, stg})
	if both[0] == both[1] {
		t.Fatal("one finding in two pipelines shares a fingerprint")
	}
	if alone := Fingerprints([]Finding{stg}); alone[0] != both[1] {
		t.Error("a pipeline's fingerprint changes with another pipeline's findings")
	}
	noFile := Finding{Rule: "unresolved-reference", Message: "nothing is named x", Pipeline: "envs/prod"}
	noFile2 := noFile
	noFile2.Pipeline = "envs/stg"
	if fp := Fingerprints([]Finding{noFile, noFile2}); fp[0] == fp[1] {
		t.Error("a finding without a file shares a fingerprint across pipelines")
	}

	own := Finding{Rule: "job-max-retries", File: "envs/prod/job.yaml", Line: 16, Message: "maxRetries 3", Component: "job"}
	before := Fingerprints([]Finding{own, shared})
	tagged := own
	tagged.Pipeline = "envs/prod"
	if got := Fingerprints([]Finding{tagged})[0]; got != before[0] {
		t.Error("a finding in its pipeline's directory changed fingerprint with the pipeline named")
	}
	// Pinned: a baseline written before pipelines were named matches.
	if want := []string{"6bae26f053807cf42e52f7b953f3e0df", "4a56f695991fb3b40287e911e715d08e"}; before[0] != want[0] || before[1] != want[1] {
		t.Errorf("fingerprints %v, want %v as before findings named their pipeline", before, want)
	}
	dot := Finding{Rule: "r", File: "job.yaml", Message: "m", Pipeline: "."}
	if Fingerprints([]Finding{dot})[0] != Fingerprints([]Finding{{Rule: "r", File: "job.yaml", Message: "m"}})[0] {
		t.Error(`a file under the pipeline "." changed fingerprint`)
	}
}
