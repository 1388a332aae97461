package multiply

import (
	"cmp"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/model"
	"github.com/retrylint/retrylint/topology"
)

// Factor is what one edge multiplies the executions of its callee by.
type Factor struct {
	Edge      *topology.Edge
	Count     Count
	Effective bool   // the edge retries and its predicate matches what the callee emits
	Retrying  bool   // the edge retries or redelivers at all
	Tasks     int    // task count folded in (a job running its container), 1 otherwise
	Term      string // formula term; "" when the factor is 1
}

// FactorOf computes the factor of e: (retries+1) when the caller's
// predicate matches a signal the callee emits to it, 1 otherwise; a job
// running its container also multiplies by its task count.
func FactorOf(e *topology.Edge) Factor {
	if len(e.Layers) > 1 {
		return layersFactor(e)
	}
	f := Factor{Edge: e, Count: One, Tasks: 1}
	f.Retrying = e.Unbounded || e.Retries > 0
	emitted := e.EmitsTo()
	f.Effective = f.Retrying && len(emitted) > 0 && e.Predicate.MatchesAny(emitted)
	term := ""
	if f.Effective {
		if e.Unbounded {
			f.Count, term = Count{Unbounded: true}, "∞"
		} else {
			f.Count = Count{N: int64(e.Retries) + 1}
			term = "(" + strconv.Itoa(e.Retries) + "+1)"
		}
	}
	if e.Kind == topology.EdgeRuns && e.From.Job != nil && e.From.Job.TaskCount > 1 {
		f.Tasks = e.From.Job.TaskCount
		f.Count = f.Count.Mul(Count{N: int64(f.Tasks)})
		if term == "" {
			term = strconv.Itoa(f.Tasks)
		} else {
			term = strconv.Itoa(f.Tasks) + "×" + term
		}
	}
	f.Term = term
	return f
}

// layersFactor is the factor of a call that nested retry loops of the
// caller's code make: each loop whose predicate matches what the callee
// emits multiplies by its (retries+1).
func layersFactor(e *topology.Edge) Factor {
	f := Factor{Edge: e, Count: One, Tasks: 1}
	emitted := e.EmitsTo()
	var terms []string
	for _, l := range e.Layers {
		f.Retrying = f.Retrying || l.Unbounded || l.Retries > 0
		if !(l.Unbounded || l.Retries > 0) || len(emitted) == 0 || !l.Predicate.MatchesAny(emitted) {
			continue
		}
		f.Effective = true
		if l.Unbounded {
			f.Count = f.Count.Mul(Count{Unbounded: true})
			terms = append(terms, "∞")
		} else {
			f.Count = f.Count.Mul(Count{N: int64(l.Retries) + 1})
			terms = append(terms, "("+strconv.Itoa(l.Retries)+"+1)")
		}
	}
	f.Term = strings.Join(terms, "×")
	return f
}

// Chain is the worst case of executions of Target per event at Root, with
// its witness path. The path is shared: a chain holds the last edge of its
// path and the chain of that edge's caller, so that the chains of a long
// path cost O(path), not O(path²), and what a chain prints keeps only the
// ends of a long path (PathEnds each).
type Chain struct {
	Root, Target *topology.Component
	// Last is the factor of the path's last edge, into Target; Prev the
	// chain of that edge's caller from the same root. Both nil for the
	// root's own chain.
	Last  *Factor
	Prev  *Chain
	Edges int // edges on the witness path
	Count Count
	// Cycle is the retry cycle that makes the count unbounded, if that is
	// what does ("a", "b", "a").
	Cycle []string

	head      []string // the first PathEnds+1 component names of the path
	headTerms []string // the first PathEnds non-empty factor terms
	terms     int      // non-empty factor terms on the path
	termChain *Chain   // the nearest chain on the path, this one included, whose Last has a term
	retried   bool     // some factor on the path is effective
	infinite  *Factor  // the first unbounded factor on the path
	delivery  *Factor  // the first unbounded factor from a deliverer
	retry     *Factor  // the first unbounded factor from a caller's own retries
	pump      int      // the first node on the path in a pumping part; -1 if none
}

// PathEnds is how many components and formula terms a printed chain keeps
// at each end of a long path.
const PathEnds = 4

// link makes the chain of target through last, the last edge of the path
// after prev; prev and last are nil for the root's own chain.
func link(root, target *topology.Component, count Count, prev *Chain, last *Factor) *Chain {
	c := &Chain{Root: root, Target: target, Count: count, Prev: prev, Last: last, pump: -1}
	if prev == nil {
		c.head = []string{root.Name}
		return c
	}
	c.Edges = prev.Edges + 1
	c.head, c.headTerms, c.terms, c.termChain = prev.head, prev.headTerms, prev.terms, prev.termChain
	c.retried, c.infinite, c.delivery, c.retry, c.pump = prev.retried, prev.infinite, prev.delivery, prev.retry, prev.pump
	if len(c.head) <= PathEnds {
		c.head = append(c.head[:len(c.head):len(c.head)], target.Name)
	}
	if last.Term != "" {
		c.terms++
		c.termChain = c
		if len(c.headTerms) < PathEnds {
			c.headTerms = append(c.headTerms[:len(c.headTerms):len(c.headTerms)], last.Term)
		}
	}
	c.retried = c.retried || last.Effective
	if c.infinite == nil && last.Count.Unbounded {
		c.infinite = last
	}
	if last.Count.Unbounded {
		if last.Edge.From.Delivery != nil {
			c.delivery = cmp.Or(c.delivery, last)
		} else {
			c.retry = cmp.Or(c.retry, last)
		}
	}
	return c
}

// UnboundedRetry is the first factor on the witness path that retries
// without limit by the caller's own policy (a queue's maxAttempts -1, a
// call's `retries: unbounded`, a Go loop without a count), not by
// redelivery; nil when there is none.
func (c *Chain) UnboundedRetry() *Factor { return c.retry }

// UnboundedDelivery is the first factor on the witness path that
// redelivers without limit (a subscription or trigger without a
// dead-letter policy); nil when there is none.
func (c *Chain) UnboundedDelivery() *Factor { return c.delivery }

// Factors lists the factors of the whole witness path, root first.
func (c *Chain) Factors() []Factor {
	return c.LastFactors(c.Edges)
}

// LastFactors lists the last n factors of the witness path, in path order.
func (c *Chain) LastFactors(n int) []Factor {
	n = min(n, c.Edges)
	out := make([]Factor, n)
	for x, i := c, n-1; i >= 0; x, i = x.Prev, i-1 {
		out[i] = *x.Last
	}
	return out
}

// Retried reports whether some layer on the witness path retries what its
// callee emits.
func (c *Chain) Retried() bool { return c.retried }

// Path lists the component names of the witness path; a path of more than
// 2×PathEnds+1 components keeps PathEnds+1 at its start and PathEnds at
// its end around model.Elision.
func (c *Chain) Path() []string {
	if c.Edges <= 2*PathEnds {
		return c.lastNames(c.Edges + 1)
	}
	out := append(append([]string(nil), c.head...), model.Elision)
	return append(out, c.lastNames(PathEnds)...)
}

// lastNames lists the last n component names of the path.
func (c *Chain) lastNames(n int) []string {
	out := make([]string, n)
	x := c
	for i := n - 1; i >= 0; i-- {
		if x.Prev == nil {
			out[i] = x.Root.Name
			break
		}
		out[i] = x.Target.Name
		x = x.Prev
	}
	return out
}

// Formula prints the chain in the notation (2+1)×(3+1) = 12; a chain whose
// factors are all 1 is "1". Past 2×PathEnds terms, the middle ones are
// counted, not printed.
func (c *Chain) Formula() string {
	var terms []string
	if c.terms <= 2*PathEnds {
		terms = c.lastTerms(c.terms)
	} else {
		terms = append(terms, c.headTerms...)
		terms = append(terms, fmt.Sprintf("%s %s more %s", model.Elision, Group(int64(c.terms-2*PathEnds)), model.Elision))
		terms = append(terms, c.lastTerms(PathEnds)...)
	}
	if len(c.Cycle) > 0 {
		terms = append(terms, "∞ (retry cycle "+strings.Join(c.Cycle, " → ")+")")
	}
	if len(terms) == 0 {
		return "1"
	}
	return strings.Join(terms, "×") + " = " + c.Count.String()
}

// lastTerms lists the last n non-empty terms of the path, in path order.
func (c *Chain) lastTerms(n int) []string {
	out := make([]string, n)
	x := c.termChain
	for i := n - 1; i >= 0; i-- {
		out[i] = x.Last.Term
		if x.Prev != nil {
			x = x.Prev.termChain
		}
	}
	return out
}

// Estimate gives a concrete figure for unbounded redelivery on the path,
// from the deliverer's retention and backoff.
func (c *Chain) Estimate() string {
	if !c.Count.Unbounded || c.delivery == nil {
		return ""
	}
	return EstimateDeliveries(c.delivery.Edge.From.Delivery)
}

// EstimateDeliveries estimates how often an undeliverable message is
// delivered before retention drops it.
func EstimateDeliveries(d *topology.Delivery) string {
	ret := d.Retention
	if ret <= 0 {
		ret = topology.DefaultRetention
	}
	if d.RetryPolicy && d.MaxBackoff > 0 {
		n := int64(ret / d.MaxBackoff)
		return fmt.Sprintf("≈ %s deliveries in %s at the %s maximum backoff", Group(n), HumanDuration(ret), seconds(d.MaxBackoff))
	}
	ack := d.AckDeadline
	if ack <= 0 {
		ack = topology.DefaultAckDeadline
	}
	n := int64(ret / ack)
	return fmt.Sprintf("≈ %s deliveries in %s with immediate redelivery (no retry policy), if each attempt waits out the %s ack deadline; more if it fails fast", Group(n), HumanDuration(ret), seconds(ack))
}

func seconds(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64) + " s"
}

// HumanDuration prints seconds as "7 days", "24 hours", "10 minutes", "45 s".
func HumanDuration(s float64) string {
	plural := func(n int64, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return strconv.FormatInt(n, 10) + " " + unit + "s"
	}
	n := int64(s)
	switch {
	case float64(n) != s:
		return seconds(s)
	case n >= 86400 && n%86400 == 0 && n != 86400:
		return plural(n/86400, "day")
	case n >= 3600 && n%3600 == 0:
		return plural(n/3600, "hour")
	case n >= 60 && n%60 == 0:
		return plural(n/60, "minute")
	}
	return seconds(s)
}

// Result is the multiplication over a whole graph.
type Result struct {
	Chains  []*Chain // by root, then target
	Factors map[*topology.Edge]Factor
	// Cycles lists the strongly connected parts of the graph with an edge
	// inside (a cycle), each as the member names in order around one cycle.
	Cycles []Cycle
	// Worst is, per component, its chain with the largest count over roots.
	Worst map[*topology.Component]*Chain
}

// Cycle is one cycle of the graph.
type Cycle struct {
	Edges    []*topology.Edge // around the cycle
	Retrying bool             // an edge on the strongly connected part retries or redelivers
}

// Names lists the cycle's components, first repeated at the end.
func (c Cycle) Names() []string {
	var out []string
	for _, e := range c.Edges {
		out = append(out, e.From.Name)
	}
	if len(c.Edges) > 0 {
		out = append(out, c.Edges[0].From.Name)
	}
	return out
}

// graphIndex numbers components and their SCCs.
type graphIndex struct {
	g       *topology.Graph
	idx     map[*topology.Component]int
	nodes   []*topology.Component
	out     [][]*topology.Edge
	factor  []Factor // per edge index
	eidx    map[*topology.Edge]int
	scc     []int // component index → SCC id; ids are in reverse topological order
	members [][]int
	pumping []bool           // SCC with a cycle through a retrying or multiplying edge
	cyclic  []bool           // SCC with a cycle at all
	cycles  map[int][]string // node → names of a shortest cycle through it
}

// Compute multiplies attempts for every root of g.
func Compute(g *topology.Graph) *Result {
	gi := index(g)
	res := &Result{Factors: map[*topology.Edge]Factor{}, Worst: map[*topology.Component]*Chain{}}
	for i, e := range g.Edges {
		res.Factors[e] = gi.factor[i]
	}
	for id, cyc := range gi.cyclic {
		if cyc {
			res.Cycles = append(res.Cycles, Cycle{Edges: gi.cycleThrough(gi.members[id][0]), Retrying: gi.pumping[id]})
		}
	}
	st := newDPState(len(gi.nodes))
	for _, r := range g.Roots() {
		res.Chains = append(res.Chains, gi.fromRoot(st, r)...)
	}
	for _, c := range res.Chains {
		if w := res.Worst[c.Target]; w == nil || w.Count.Less(c.Count) {
			res.Worst[c.Target] = c
		}
	}
	return res
}

func index(g *topology.Graph) *graphIndex {
	gi := &graphIndex{g: g, idx: map[*topology.Component]int{}, eidx: map[*topology.Edge]int{}, cycles: map[int][]string{}}
	for i, c := range g.Components {
		gi.idx[c] = i
	}
	gi.nodes = g.Components
	gi.out = make([][]*topology.Edge, len(gi.nodes))
	gi.factor = make([]Factor, len(g.Edges))
	for i, e := range g.Edges {
		gi.eidx[e] = i
		gi.factor[i] = FactorOf(e)
		from := gi.idx[e.From]
		gi.out[from] = append(gi.out[from], e)
	}
	gi.tarjan()
	gi.pumping = make([]bool, len(gi.members))
	gi.cyclic = make([]bool, len(gi.members))
	for i, e := range g.Edges {
		a, b := gi.scc[gi.idx[e.From]], gi.scc[gi.idx[e.To]]
		if a != b {
			continue
		}
		gi.cyclic[a] = true
		f := gi.factor[i]
		if f.Retrying || f.Count != One {
			gi.pumping[a] = true
		}
	}
	return gi
}

// tarjan finds strongly connected components iteratively (no recursion
// depth limit on long chains).
func (gi *graphIndex) tarjan() {
	n := len(gi.nodes)
	gi.scc = make([]int, n)
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct{ v, ei int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = next, next
		next++
		stack = append(stack, s)
		on[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.ei < len(gi.out[v]) {
				w := gi.idx[gi.out[v][f.ei].To]
				f.ei++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					on[w] = true
					call = append(call, frame{w, 0})
				} else if on[w] && index[w] < low[v] {
					low[v] = index[w]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				if low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] == index[v] {
				id := len(gi.members)
				var mem []int
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					on[w] = false
					gi.scc[w] = id
					mem = append(mem, w)
					if w == v {
						break
					}
				}
				sort.Ints(mem)
				gi.members = append(gi.members, mem)
			}
		}
	}
}

// cycleThrough finds a shortest cycle from node v back to itself inside its SCC.
func (gi *graphIndex) cycleThrough(v int) []*topology.Edge {
	id := gi.scc[v]
	pred := map[int]*topology.Edge{}
	queue := []int{v}
	seen := map[int]bool{v: true}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, e := range gi.out[x] {
			w := gi.idx[e.To]
			if gi.scc[w] != id {
				continue
			}
			if w == v {
				path := []*topology.Edge{e}
				for y := x; y != v; {
					pe := pred[y]
					path = append(path, pe)
					y = gi.idx[pe.From]
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				return path
			}
			if !seen[w] {
				seen[w] = true
				pred[w] = e
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// dpState is reused across roots; only touched entries are reset.
type dpState struct {
	best    []Count
	pred    []*topology.Edge
	reached []bool
	touched []int
	sccSeen []bool
}

func newDPState(n int) *dpState {
	return &dpState{best: make([]Count, n), pred: make([]*topology.Edge, n), reached: make([]bool, n), sccSeen: make([]bool, n)}
}

func (st *dpState) reset() {
	for _, v := range st.touched {
		st.best[v], st.pred[v], st.reached[v] = Count{}, nil, false
	}
	st.touched = st.touched[:0]
}

func (st *dpState) set(v int, c Count, e *topology.Edge) {
	if !st.reached[v] {
		st.reached[v] = true
		st.touched = append(st.touched, v)
	}
	st.best[v], st.pred[v] = c, e
}

// fromRoot runs the dynamic programme for one root: in topological order of
// the strongly connected parts reachable from r, each component's worst
// case is the maximum over incoming edges of (caller's worst case × factor).
func (gi *graphIndex) fromRoot(st *dpState, r *topology.Component) []*Chain {
	st.reset()
	ri := gi.idx[r]
	// SCCs reachable from r.
	var sccs []int
	stack := []int{ri}
	visited := map[int]bool{ri: true}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id := gi.scc[v]; !st.sccSeen[id] {
			st.sccSeen[id] = true
			sccs = append(sccs, id)
		}
		for _, e := range gi.out[v] {
			w := gi.idx[e.To]
			if !visited[w] {
				visited[w] = true
				stack = append(stack, w)
			}
		}
	}
	// Tarjan ids are in reverse topological order.
	sort.Sort(sort.Reverse(sort.IntSlice(sccs)))
	for _, id := range sccs {
		st.sccSeen[id] = false
	}
	st.set(ri, One, nil)
	var order []int
	for _, id := range sccs {
		mem := gi.members[id]
		if gi.cyclic[id] {
			gi.settleCycle(st, id)
		}
		for _, v := range mem {
			if !st.reached[v] {
				continue
			}
			order = append(order, v)
			for _, e := range gi.out[v] {
				w := gi.idx[e.To]
				if gi.scc[w] == id {
					continue
				}
				cand := st.best[v].Mul(gi.factor[gi.eidx[e]].Count)
				if !st.reached[w] || st.best[w].Less(cand) {
					st.set(w, cand, e)
				}
			}
		}
	}
	built := make(map[int]*Chain, len(order))
	chains := make([]*Chain, 0, len(order))
	for _, v := range order {
		chains = append(chains, gi.chain(st, r, v, built))
	}
	sort.Slice(chains, func(i, j int) bool { return chains[i].Target.Name < chains[j].Target.Name })
	return chains
}

// settleCycle gives every member of a cyclic SCC the worst case of its best
// entry (unbounded when the cycle retries) and a witness inside the SCC.
func (gi *graphIndex) settleCycle(st *dpState, id int) {
	entry := -1
	for _, v := range gi.members[id] {
		if st.reached[v] && (entry < 0 || st.best[entry].Less(st.best[v])) {
			entry = v
		}
	}
	if entry < 0 {
		return
	}
	val := st.best[entry]
	if gi.pumping[id] {
		val = Count{Unbounded: true}
	}
	st.set(entry, val, st.pred[entry])
	queue := []int{entry}
	seen := map[int]bool{entry: true}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		for _, e := range gi.out[x] {
			w := gi.idx[e.To]
			if gi.scc[w] != id || seen[w] {
				continue
			}
			seen[w] = true
			st.set(w, val, e)
			queue = append(queue, w)
		}
	}
}

// chain returns the chain of v from root r, linked to the chains of its
// witness path, which built holds once made.
func (gi *graphIndex) chain(st *dpState, r *topology.Component, v int, built map[int]*Chain) *Chain {
	if c, ok := built[v]; ok {
		return c
	}
	// The nodes of the path not built yet, target first.
	var todo []int
	for x := v; ; {
		if _, ok := built[x]; ok {
			break
		}
		todo = append(todo, x)
		e := st.pred[x]
		if e == nil || len(todo) > len(gi.nodes) {
			break
		}
		x = gi.idx[e.From]
	}
	for i := len(todo) - 1; i >= 0; i-- {
		x := todo[i]
		var c *Chain
		if e := st.pred[x]; e == nil || i == len(todo)-1 && built[gi.idx[e.From]] == nil {
			c = link(r, gi.nodes[x], st.best[x], nil, nil)
			if gi.pumping[gi.scc[x]] {
				c.pump = x
			}
		} else {
			c = link(r, gi.nodes[x], st.best[x], built[gi.idx[e.From]], &gi.factor[gi.eidx[e]])
			if c.pump < 0 && gi.pumping[gi.scc[x]] {
				c.pump = x
			}
		}
		if c.Count.Unbounded && c.infinite == nil && c.pump >= 0 {
			c.Cycle = gi.cycleNames(c.pump)
		}
		built[x] = c
	}
	return built[v]
}

// cycleNames names a shortest retry cycle through node v, computed once
// per node.
func (gi *graphIndex) cycleNames(v int) []string {
	if names, ok := gi.cycles[v]; ok {
		return names
	}
	names := Cycle{Edges: gi.cycleThrough(v)}.Names()
	gi.cycles[v] = names
	return names
}

// Report converts the chain to the shared result model.
func (c *Chain) Report() model.Chain {
	// A long path lists only its last edge: the chain of that edge's caller
	// lists the one before, and so on.
	keep := c.Edges
	if keep > 2*PathEnds {
		keep = 1
	}
	factors := c.LastFactors(keep)
	rc := model.Chain{Root: c.Root.Name, Target: c.Target.Name, Path: c.Path(),
		Factors: make([]model.Factor, 0, len(factors)), Formula: c.Formula(), Unbounded: c.Count.Unbounded,
		Estimate: c.Estimate(), OmittedFactors: c.Edges - len(factors)}
	if !c.Count.Unbounded {
		n := c.Count.N
		rc.Attempts = &n
	}
	for _, f := range factors {
		e := f.Edge
		if len(e.Layers) > 1 {
			rc.Factors = append(rc.Factors, layerFactors(f)...)
			continue
		}
		rf := model.Factor{From: e.From.Name, To: e.To.Name, Effective: f.Effective,
			File: e.Pos.File, Line: e.Pos.Line}
		if e.RetryPos.IsValid() {
			rf.File, rf.Line = e.RetryPos.File, e.RetryPos.Line
		}
		if !e.Unbounded {
			r := e.Retries
			rf.Retries = &r
		}
		if !f.Count.Unbounded {
			a := int(min(f.Count.N, math.MaxInt32))
			rf.Attempts = &a
		}
		rc.Factors = append(rc.Factors, rf)
	}
	return rc
}

// layerFactors lists the nested retry loops of a call read from code, one
// factor each, outermost first, each at its loop.
func layerFactors(f Factor) []model.Factor {
	e := f.Edge
	emitted := e.EmitsTo()
	out := make([]model.Factor, 0, len(e.Layers))
	for _, l := range e.Layers {
		effective := (l.Unbounded || l.Retries > 0) && len(emitted) > 0 && l.Predicate.MatchesAny(emitted)
		rf := model.Factor{From: e.From.Name, To: e.To.Name, Effective: effective, File: l.Pos.File, Line: l.Pos.Line}
		a := 1
		if !l.Unbounded {
			r := l.Retries
			rf.Retries = &r
			if effective {
				a = r + 1
			}
		}
		if !(l.Unbounded && effective) {
			rf.Attempts = &a
		}
		out = append(out, rf)
	}
	return out
}
