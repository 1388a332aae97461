package all_test

import (
	"slices"
	"testing"

	"github.com/retrylint/retrylint/analyzer/all"
	"github.com/retrylint/retrylint/internal/suppress"
)

// TestDirectivesKnowEveryRule: the rule names a //retrylint:ignore may use
// are exactly the analyzers' rules, so that a new rule is not reported as
// unknown and a removed one is.
func TestDirectivesKnowEveryRule(t *testing.T) {
	var names []string
	for _, r := range all.Rules() {
		names = append(names, r.Name)
	}
	got := slices.Sorted(slices.Values(suppress.CodeRules))
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("suppress.CodeRules = %v, analyzers = %v", got, names)
	}
}
