package workflows

import (
	"fmt"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
)

// sequentialCalls is a workflow of n http.get steps one after the other,
// each with a retry policy: the shape of a long generated pipeline.
func sequentialCalls(n int) []byte {
	var b strings.Builder
	b.WriteString("main:\n  params: [event]\n  steps:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "    - get%d:\n        try:\n          call: http.get\n          args:\n            url: ${\"https://svc-%d.example.com/\" + event.id}\n          result: r%d\n        retry: ${http.default_retry}\n", i, i%7, i)
	}
	b.WriteString("    - done:\n        return: ok\n")
	return []byte(b.String())
}

func benchmarkCalls(b *testing.B, n int) {
	src := sequentialCalls(n)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		w, err := Parse("flow.yaml", src)
		if err != nil {
			b.Fatal(err)
		}
		if len(w.Calls) != n {
			b.Fatalf("%d calls, want %d", len(w.Calls), n)
		}
	}
}

func BenchmarkWorkflowCalls2000(b *testing.B) { benchmarkCalls(b, 2000) }
func BenchmarkWorkflowCalls8000(b *testing.B) { benchmarkCalls(b, 8000) }

// TestWorkflowCallsLinear: a workflow of n calls, each of which can fail
// at the end of a path of every earlier step, costs O(n), not O(n²).
func TestWorkflowCallsLinear(t *testing.T) {
	growth.Linear(t, 1000, sequentialCalls, func(src []byte) {
		if _, err := Parse("flow.yaml", src); err != nil {
			t.Fatal(err)
		}
	})
}

// TestLongFailPathElided: a fail path keeps its first and last steps.
func TestLongFailPathElided(t *testing.T) {
	w, err := Parse("flow.yaml", sequentialCalls(40))
	if err != nil {
		t.Fatal(err)
	}
	last := w.FailPaths[len(w.FailPaths)-1].Steps
	want := "get0 get1 get2 get3 get4 get5 get6 get7 … get32 get33 get34 get35 get36 get37 get38 get39"
	if got := strings.Join(last, " "); got != want {
		t.Errorf("steps = %s\nwant    %s", got, want)
	}
}

// dottedRead is a workflow returning ${event.f1.f2...fn}: a selector chain
// of n names.
func dottedRead(n int) []byte {
	var b strings.Builder
	b.WriteString("main:\n  params: [event]\n  steps:\n    - done:\n        return: ${event")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, ".f%d", i)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// TestDottedNamesLinear: reading a.b.c... of n names costs O(n).
func TestDottedNamesLinear(t *testing.T) {
	growth.Linear(t, 5000, dottedRead, func(src []byte) {
		w, err := Parse("flow.yaml", src)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.ParamReads) != 1 {
			t.Fatalf("%d parameter reads, want 1", len(w.ParamReads))
		}
	})
}

func BenchmarkDottedName20000(b *testing.B) { benchmarkDotted(b, 20000) }
func BenchmarkDottedName80000(b *testing.B) { benchmarkDotted(b, 80000) }

func benchmarkDotted(b *testing.B, n int) {
	src := dottedRead(n)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("flow.yaml", src); err != nil {
			b.Fatal(err)
		}
	}
}
