package rules

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// TestUnboundedIsOverEveryBudget: a worst case without limit is an error
// of amplification whether or not a budget is declared, and the message
// names the setting that makes it unbounded.
func TestUnboundedIsOverEveryBudget(t *testing.T) {
	dir := filepath.Join("testdata", "amplification", "fire")
	for _, tc := range []struct{ dir, component, cause string }{
		{"unbounded-queue", "order-handler", "orders retries order-handler without limit at testdata/amplification/fire/unbounded-queue/orders-queue.yaml:4"},
		{"unbounded-edge", "partner-api", "poller retries partner-api without limit at testdata/amplification/fire/unbounded-edge/retrylint.yaml:7"},
		{"unbounded-code", "catalog-api", "the retry loop in fetcher.Fetch at testdata/amplification/fire/unbounded-code/app/fetch.go:12"},
		{"unbounded-workflow", "payments.example.com", "step charge of charge-workflow retries payments.example.com without limit at testdata/amplification/fire/unbounded-workflow/charge-workflow.yaml:14:9 (max_retries is not known statically, so it is assumed unbounded)"},
		{"unbounded-code", "stock-api", "the retry loop in fetcher.Stock at testdata/amplification/fire/unbounded-code/app/fetch.go:24:2 has no count the analysis can read (bounded only by its context), so it is assumed to retry the call to stock-api without limit"},
	} {
		t.Run(tc.component, func(t *testing.T) {
			var got []model.Finding
			for _, f := range run(t, filepath.Join(dir, tc.dir)) {
				if f.Rule == amplification.ID && f.Component == tc.component {
					got = append(got, f)
				}
			}
			if len(got) != 1 {
				t.Fatalf("want one amplification finding on "+tc.component+", got %v", got)
			}
			f := got[0]
			if f.Severity != model.Error {
				t.Errorf("got a %s, want an error", f.Severity)
			}
			for _, want := range []string{"runs without limit", tc.cause, "over every budget"} {
				if !strings.Contains(f.Message, want) {
					t.Errorf("message %q lacks %q", f.Message, want)
				}
			}
		})
	}
}
