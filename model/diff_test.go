package model

import "testing"

func chain(root, target string, n int64, formula string) Chain {
	return Chain{Root: root, Target: target, Attempts: &n, Formula: formula}
}

func TestCompare(t *testing.T) {
	jobRetries := Finding{Rule: "job-max-retries", File: "job.yaml", Line: 16, Message: "maxRetries 3"}
	noBackoff := Finding{Rule: "retry-without-backoff", File: "wf.yaml", Line: 12, Message: "no backoff"}
	base := &Result{
		Findings: []Finding{noBackoff},
		Chains: []Chain{
			chain("wf", "app", 3, "(2+1) = 3"),
			chain("wf", "job", 3, "(2+1) = 3"),
			chain("wf", "old", 1, "1"),
		},
	}
	moved := noBackoff
	moved.Line = 20 // lines moved, the same finding
	unbounded := Chain{Root: "push", Target: "app", Unbounded: true, Formula: "∞"}
	head := &Result{
		Findings: []Finding{jobRetries, moved},
		Chains: []Chain{
			chain("wf", "app", 12, "(2+1)×(3+1) = 12"),
			chain("wf", "job", 3, "(2+1) = 3"),
			chain("wf", "new", 2, "(1+1) = 2"),
			unbounded,
		},
	}
	ch := Compare(base, head)
	if len(ch.New) != 1 || ch.New[0].Rule != "job-max-retries" {
		t.Errorf("new findings %+v, want job-max-retries only", ch.New)
	}
	if len(ch.Fixed) != 0 {
		t.Errorf("fixed findings %+v, want none", ch.Fixed)
	}
	got := map[string]string{}
	for _, a := range ch.Attempts {
		got[a.Component] = a.Before.String() + " → " + a.After.String()
	}
	want := map[string]string{"app": "3 → unbounded", "new": "— → 2", "old": "1 → —"}
	if len(got) != len(want) {
		t.Errorf("attempt changes %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}

	back := Compare(head, base)
	if len(back.Fixed) != 1 || back.Fixed[0].Rule != "job-max-retries" || len(back.New) != 0 {
		t.Errorf("reverse: new %+v fixed %+v", back.New, back.Fixed)
	}
}

func TestWorstCasesTakesTheWorstRoot(t *testing.T) {
	w := WorstCases([]Chain{chain("b", "app", 4, "(3+1) = 4"), chain("a", "app", 4, "(1+1)×(1+1) = 4"), chain("c", "app", 2, "(1+1) = 2")})
	if got := w[WorstKey{Component: "app"}]; got.String() != "4" || got.Root != "a" {
		t.Errorf("worst case %s from %s, want 4 from a (ties: the first root)", got, got.Root)
	}
}

// TestCompareKeysByPipeline: two environments with the same root and
// target; one changes, so exactly one change, naming its pipeline.
func TestCompareKeysByPipeline(t *testing.T) {
	in := func(p string, c Chain) Chain { c.Pipeline = p; return c }
	base := &Result{Chains: []Chain{
		in("envs/prod", chain("wf", "job", 2, "(1+1) = 2")),
		in("envs/stg", chain("wf", "job", 2, "(1+1) = 2")),
	}}
	head := &Result{Chains: []Chain{
		in("envs/prod", chain("wf", "job", 2, "(1+1) = 2")),
		in("envs/stg", chain("wf", "job", 4, "(3+1) = 4")),
	}}
	ch := Compare(base, head)
	if len(ch.Attempts) != 1 {
		t.Fatalf("attempt changes %+v, want one", ch.Attempts)
	}
	if a := ch.Attempts[0]; a.Pipeline != "envs/stg" || a.Component != "job" || a.Before.String() != "2" || a.After.String() != "4" {
		t.Errorf("change %+v (%s → %s), want job in envs/stg: 2 → 4", a, a.Before, a.After)
	}
	// Keyed by name alone, the worse of the two would hide the other.
	w := WorstCases(head.Chains)
	if len(w) != 2 || w[WorstKey{"envs/prod", "job"}].String() != "2" || w[WorstKey{"envs/stg", "job"}].String() != "4" {
		t.Errorf("worst cases %v, want job in each pipeline", w)
	}
}
