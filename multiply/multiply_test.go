package multiply

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/topology"
)

// layered builds layers×width apps, every app of a layer calling every app
// of the next with `retries` retries on any failure.
func layered(layers, width, retries int) *topology.Graph {
	var comps []*topology.Component
	var edges []*topology.Edge
	grid := make([][]*topology.Component, layers)
	for l := range grid {
		for w := 0; w < width; w++ {
			c := &topology.Component{Name: fmt.Sprintf("l%02d-%d", l, w), Kind: topology.KindApp}
			grid[l] = append(grid[l], c)
			comps = append(comps, c)
		}
	}
	for l := 0; l+1 < layers; l++ {
		for _, a := range grid[l] {
			for _, b := range grid[l+1] {
				call := &topology.Call{To: b.Name, Kind: topology.EdgeCall, Retries: retries,
					Predicate: topology.Predicate{Any: true, Known: true}}
				edges = append(edges, &topology.Edge{From: a, To: b, Call: call})
			}
		}
	}
	return topology.NewGraph(comps, edges)
}

func TestLayeredExact(t *testing.T) {
	g := layered(60, 2, 1)
	res := Compute(g)
	last := g.Component("l59-0")
	w := res.Worst[last]
	if w == nil || w.Count.Unbounded || w.Count.N != 1<<59 {
		t.Fatalf("worst case of l59-0 = %+v, want 2^59 = %d", w, int64(1)<<59)
	}
	if len(w.Factors()) != 59 {
		t.Errorf("witness path has %d edges, want 59", len(w.Factors()))
	}
	// 2 roots × 120 components reachable... each root reaches itself and
	// layers 1..59.
	if got, want := len(res.Chains), 2*(1+59*2); got != want {
		t.Errorf("%d chains, want %d", got, want)
	}
}

func TestSaturates(t *testing.T) {
	g := layered(70, 2, 1)
	w := Compute(g).Worst[g.Component("l69-1")]
	if !w.Count.Saturated() || w.Count.String() != "≥ 9223372036854775807" {
		t.Fatalf("count = %v, want saturated", w.Count)
	}
	if w.Count.N != math.MaxInt64 {
		t.Fatal("not MaxInt64")
	}
}

func TestFormula(t *testing.T) {
	wf := &topology.Component{Name: "wf", Kind: topology.KindWorkflow}
	job := &topology.Component{Name: "job", Kind: topology.KindJob, Job: &topology.JobSpec{MaxRetries: 3, TaskCount: 1, TaskTimeout: 300}}
	app := &topology.Component{Name: "app", Kind: topology.KindApp}
	e1 := &topology.Edge{From: wf, To: job, Call: &topology.Call{Kind: topology.EdgeCall, Retries: 2, Awaits: true, Timeout: 1800,
		Predicate: topology.Predicate{Signals: topology.Signals{topology.SigOperationError}, Known: true}}}
	e2 := &topology.Edge{From: job, To: app, Call: &topology.Call{Kind: topology.EdgeRuns, Retries: 3, Awaits: true,
		Predicate: topology.Predicate{Signals: topology.Signals{topology.SigExitNonzero}, Known: true}}}
	g := topology.NewGraph([]*topology.Component{wf, job, app}, []*topology.Edge{e1, e2})
	res := Compute(g)
	w := res.Worst[app]
	if got, want := w.Formula(), "(2+1)×(3+1) = 12"; got != want {
		t.Errorf("formula %q, want %q", got, want)
	}
	if got := res.Worst[wf].Formula(); got != "1" {
		t.Errorf("root formula %q, want 1", got)
	}
	// A predicate that cannot see the job's failure: dead layer.
	e1.Predicate = topology.Predicate{Signals: topology.Signals{topology.SigHTTP429, topology.SigHTTP5xx, topology.SigConnection, topology.SigTimeout}, Known: true}
	res = Compute(g)
	if got, want := res.Worst[app].Formula(), "(3+1) = 4"; got != want {
		t.Errorf("formula %q, want %q", got, want)
	}
}

func TestCycleUnbounded(t *testing.T) {
	a := &topology.Component{Name: "a", Kind: topology.KindApp}
	b := &topology.Component{Name: "b", Kind: topology.KindApp}
	c := &topology.Component{Name: "c", Kind: topology.KindApp}
	any := topology.Predicate{Any: true, Known: true}
	g := topology.NewGraph([]*topology.Component{a, b, c}, []*topology.Edge{
		{From: a, To: b, Call: &topology.Call{Retries: 1, Predicate: any}},
		{From: b, To: c, Call: &topology.Call{Predicate: any}},
		{From: c, To: b, Call: &topology.Call{Predicate: any}},
	})
	res := Compute(g)
	if w := res.Worst[c]; w.Count.Unbounded || w.Count.N != 2 {
		t.Fatalf("c = %v, want 2: the cycle b→c→b does not retry", w.Count)
	}
	g.Out[c][0].Retries = 2
	res = Compute(g)
	w := res.Worst[c]
	if !w.Count.Unbounded {
		t.Fatalf("c = %v, want unbounded: the cycle retries", w.Count)
	}
	if got, want := w.Formula(), "(1+1)×∞ (retry cycle b → c → b) = unbounded"; got != want {
		t.Errorf("formula %q, want %q", got, want)
	}
	// A component reached without a retrying edge on the way, but that sits
	// in the cycle itself, names the cycle too.
	d := &topology.Component{Name: "d", Kind: topology.KindApp}
	g = topology.NewGraph([]*topology.Component{a, b, c, d}, []*topology.Edge{
		{From: d, To: b, Call: &topology.Call{Predicate: any}},
		{From: b, To: c, Call: &topology.Call{Predicate: any}},
		{From: c, To: b, Call: &topology.Call{Retries: 2, Predicate: any}},
	})
	res = Compute(g)
	if w := res.Worst[b]; !w.Count.Unbounded || !strings.Contains(w.Formula(), "retry cycle") {
		t.Errorf("b = %v with formula %q: want unbounded, naming the retry cycle", w.Count, w.Formula())
	}
}

func TestEstimate(t *testing.T) {
	d := &topology.Delivery{Retention: 604800, RetryPolicy: true, MaxBackoff: 600}
	if got, want := EstimateDeliveries(d), "≈ 1,008 deliveries in 7 days at the 600 s maximum backoff"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkLayered60 multiplies a 60-layer graph, two components per layer,
// fully linked: 2^59 paths from each root to the last layer.
func BenchmarkLayered60(b *testing.B) {
	g := layered(60, 2, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := Compute(g)
		if res.Worst[g.Component("l59-0")].Count.N != 1<<59 {
			b.Fatal("wrong count")
		}
	}
}
