package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// loopFindings are the findings of one function's retry loop and of a
// topology component.
var loopFindings = []model.Finding{
	{Rule: "fixed-sleep", File: "pay.go", Line: 12, Message: "retry loop waits a constant 1s between attempts", Function: "(*Client).Charge", Loop: "for attempt := _ ; attempt < _ ; attempt ++"},
	{Rule: "unclassified-retry", File: "pay.go", Line: 9, Message: "retry loop retries every error of c.Charge", Function: "(*Client).Charge", Loop: "for attempt := _ ; attempt < _ ; attempt ++"},
	{Rule: "amplification", File: "job.yaml", Line: 4, Message: "runs 12 times per event", Component: "mapping-job"},
}

// roundTrip writes a baseline of fs and reads it back.
func roundTrip(t *testing.T, fs []model.Finding) *Baseline {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteBaseline(&buf, NewBaseline(fs)); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBaseline("baseline.json", buf.Bytes())
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	return b
}

// TestBaselineKeysOnWhereNotWording: a baseline entry accepts its finding
// when the message is reworded, the delay or the attempts changed and the
// lines moved; it keys on the rule, the file, the function and the loop's
// shape (the component for the topology half).
func TestBaselineKeysOnWhereNotWording(t *testing.T) {
	b := roundTrip(t, loopFindings)
	changed := slices.Clone(loopFindings)
	changed[0].Message, changed[0].Line = "the loop sleeps 2s, always the same", 40
	changed[1].Message = "every error is retried"
	changed[2].Message, changed[2].Line = "runs 36 times per event", 9
	kept, stale := b.Filter(changed)
	if len(kept) != 0 || len(stale) != 0 {
		t.Errorf("reworded: kept %+v, stale %+v; want every finding accepted", kept, stale)
	}

	other := slices.Clone(loopFindings)
	other[0].Function = "(*Client).Refund" // the same rule in another function
	other[2].Component = "other-job"
	kept, stale = b.Filter(other)
	if len(kept) != 2 || kept[0].Function != "(*Client).Refund" || kept[1].Component != "other-job" {
		t.Errorf("another function and component: kept %+v, want both reported", kept)
	}
	if len(stale) != 2 {
		t.Errorf("stale %+v, want the two entries that match nothing now", stale)
	}

	// Twice the same loop's finding, one entry: one is reported.
	twice := append(slices.Clone(loopFindings[:1]), loopFindings[0])
	twice[1].Line = 30
	if kept, _ := roundTrip(t, loopFindings[:1]).Filter(twice); len(kept) != 1 {
		t.Errorf("two findings for one entry: kept %d, want 1", len(kept))
	}
}

// TestBaselineStaleEntries: an entry that matches no finding is returned
// as stale, to be said, and the others are not.
func TestBaselineStaleEntries(t *testing.T) {
	b := roundTrip(t, loopFindings)
	kept, stale := b.Filter(loopFindings[1:]) // the sleep was fixed
	if len(kept) != 0 || len(stale) != 1 || stale[0].Rule != "fixed-sleep" || stale[0].Function != "(*Client).Charge" {
		t.Errorf("kept %+v, stale %+v; want the fixed-sleep entry stale", kept, stale)
	}
	if got := stale[0].String(); got != "fixed-sleep in pay.go, (*Client).Charge" {
		t.Errorf("stale entry said as %q", got)
	}
}

// TestBaselineVersion1IsRead: a baseline written before entries were
// keyed on the site, by the fingerprint of the finding's message, still
// accepts what it recorded.
func TestBaselineVersion1IsRead(t *testing.T) {
	var entries []string
	for i, fp := range model.Fingerprints(loopFindings) {
		f := loopFindings[i]
		entries = append(entries, fmt.Sprintf(`{"fingerprint": %q, "rule": %q, "file": %q, "message": %q}`, fp, f.Rule, f.File, f.Message))
	}
	src := `{"version": 1, "findings": [` + strings.Join(entries[:2], ", ") + `]}`
	b, err := ReadBaseline("old.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	kept, stale := b.Filter(loopFindings)
	if len(kept) != 1 || kept[0].Rule != "amplification" || len(stale) != 0 {
		t.Errorf("version 1: kept %+v, stale %+v; want the unrecorded finding only", kept, stale)
	}
	kept, stale = b.Filter(loopFindings[1:])
	if len(stale) != 1 || stale[0].Rule != "fixed-sleep" {
		t.Errorf("version 1, the sleep fixed: stale %+v, want its entry", stale)
	}
}
