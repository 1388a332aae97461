package workflows

import (
	"fmt"
	"slices"
)

// maxStates bounds the abstract states explored per scope, and maxStateBytes the memory their
// variable sets take; past either the result is approximate.
const (
	maxStates     = 200000
	maxStateBytes = 16 << 20
)

// stateKey is a control-flow node with the set of variables assigned on the way there.
// df marks a path on which a call inside an except block has itself failed (a double fault).
type stateKey struct {
	node int
	defs string
	df   bool
}

type state struct {
	key    stateKey
	parent int
	// head is the start of the witness path's step names, at most
	// pathEnds of them, shared with the parent once full; names counts
	// them all.
	head  []string
	names int
	last  string // the last step name on the path
	ok    []int  // successors on normal completion
	err   int    // successor on error; -1 if none or the error ends the execution
	// errFails: the error raised here ends the execution; errFailsPrimary: and it is not a
	// double fault.
	errFails, errFailsPrimary bool
	raises                    bool // the node raises an error on this state
}

// failure is a way the execution ends FAILED found during exploration.
type failure struct {
	state  int
	pos    Pos
	reason string
	df     bool
	callee *summary // set when a subworkflow call fails with no handler
}

// summary is the analysis of one scope.
type summary struct {
	g         *graph
	states    []*state
	byNode    map[int][]int
	failures  []failure
	canFail   []bool // a primary failure is reachable from the state
	canFailDF []bool // any failure, double faults included, is reachable
	truncated bool
	// paths are the fail paths of the scope, computed once.
	paths, doubles []FailPath
}

// calleeFunc returns the summary of the subworkflow a call invokes, or nil.
type calleeFunc func(fn string) *summary

// explore runs the path-sensitive assigned-variable analysis over a scope's graph.
func explore(g *graph, callee calleeFunc) *summary {
	// Most nodes are reached in one state: size for that.
	s := &summary{g: g, byNode: make(map[int][]int, len(g.nodes)), states: make([]*state, 0, len(g.nodes))}
	index := make(map[stateKey]int, len(g.nodes))
	words := (len(g.vars) + 7) / 8
	start := make([]byte, words)
	for _, p := range g.scope.params {
		if i, ok := g.vars[p]; ok {
			setBit(start, i)
		}
	}
	push := func(parent, nodeID int, defs []byte, df bool) int {
		k := stateKey{nodeID, string(defs), df}
		if id, ok := index[k]; ok {
			return id
		}
		if len(s.states) >= maxStates || len(s.states)*(len(defs)+48) > maxStateBytes {
			s.truncated = true
			return -1
		}
		id := len(s.states)
		index[k] = id
		st := &state{key: k, parent: parent, err: -1}
		s.extendPath(st, g.nodes[nodeID].name)
		s.states = append(s.states, st)
		s.byNode[nodeID] = append(s.byNode[nodeID], id)
		return id
	}
	push(-1, g.entry, start, false)
	recorded := map[string]bool{}
	for i := 0; i < len(s.states); i++ {
		st := s.states[i]
		n := g.nodes[st.key.node]
		defs := []byte(st.key.defs)
		addOK := func(to int, defs []byte) {
			if to < 0 {
				return
			}
			if id := push(i, to, defs, st.key.df); id >= 0 {
				st.ok = append(st.ok, id)
			}
		}
		raise := func(pos Pos, reason string, df bool, sub *summary) {
			st.raises = true
			if n.handler == failID {
				st.errFails = true
				st.errFailsPrimary = st.errFailsPrimary || !df
				// The first (shortest) path to each failure is its witness.
				if key := fmt.Sprintf("%d|%s|%v", st.key.node, reason, df); !recorded[key] {
					recorded[key] = true
					s.failures = append(s.failures, failure{state: i, pos: pos, reason: reason, df: df, callee: sub})
				}
				return
			}
			if id := push(i, n.handler, defs, df); id >= 0 {
				st.err = id
			}
		}
		if n.op == opEnd || n.op == opFail {
			continue
		}
		if r, ok := unassigned(g, n.reads, defs); ok {
			raise(r.pos, fmt.Sprintf("read of `%s`, never assigned on this path", r.name), st.key.df, nil)
			continue
		}
		switch n.op {
		case opNop, opCond:
			addOK(n.next, defs)
			if n.op == opCond && !n.always {
				addOK(n.alt, defs)
			}
		case opAssign, opExcept, opIter:
			addOK(n.next, withVars(g, defs, n.defs, true))
		case opLoopExit:
			addOK(n.next, withVars(g, defs, n.undefs, false))
		case opCall:
			addOK(n.next, withVars(g, defs, n.defs, true))
			fn := n.call.function
			if sub := callee(fn); sub != nil {
				if len(sub.paths) > 0 {
					// In an except block, a subworkflow that fails only because one of its calls
					// failed is a double fault; one that raises fails on purpose.
					df := st.key.df
					if n.inExcept && !sub.raisesOnPurpose() {
						df = true
					}
					raise(n.pos, "error from subworkflow "+fn, df, sub)
				}
			} else if canRaise(fn) {
				raise(n.pos, describeCall(n), st.key.df || n.inExcept, nil)
			}
		case opRaise:
			reason := "raise"
			if n.reraise != "" {
				reason = fmt.Sprintf("re-raise of ${%s} in except", n.reraise)
			}
			raise(n.pos, reason, st.key.df, nil)
		case opReturn:
			addOK(endID, defs)
		}
	}
	s.reach()
	return s
}

// raisesOnPurpose reports whether some fail path of the scope is not a call's error.
func (s *summary) raisesOnPurpose() bool {
	for _, p := range s.paths {
		if p.Kind != FailCallError {
			return true
		}
	}
	return false
}

// reach computes, for every state, whether a failure is reachable from it.
func (s *summary) reach() {
	n := len(s.states)
	s.canFail, s.canFailDF = make([]bool, n), make([]bool, n)
	preds := make([][]int, n)
	for i, st := range s.states {
		for _, t := range st.ok {
			preds[t] = append(preds[t], i)
		}
		if st.err >= 0 {
			preds[st.err] = append(preds[st.err], i)
		}
	}
	mark := func(flags []bool, primary bool) {
		var queue []int
		for i, st := range s.states {
			if (primary && st.errFailsPrimary) || (!primary && st.errFails) {
				flags[i] = true
				queue = append(queue, i)
			}
		}
		for len(queue) > 0 {
			i := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, p := range preds[i] {
				if !flags[p] && (!primary || !s.states[p].key.df) {
					flags[p] = true
					queue = append(queue, p)
				}
			}
		}
	}
	mark(s.canFail, true)
	mark(s.canFailDF, false)
}

// unassigned returns the first read of a scope variable that defs does not hold.
func unassigned(g *graph, reads []read, defs []byte) (read, bool) {
	for _, r := range reads {
		if i, ok := g.vars[r.name]; ok && !hasBit(defs, i) {
			return r, true
		}
	}
	return read{}, false
}

func withVars(g *graph, defs []byte, names []string, set bool) []byte {
	if len(names) == 0 {
		return defs
	}
	out := append([]byte(nil), defs...)
	for _, name := range names {
		if i, ok := g.vars[name]; ok {
			if set {
				setBit(out, i)
			} else {
				out[i/8] &^= 1 << (i % 8)
			}
		}
	}
	return out
}

func setBit(b []byte, i int)      { b[i/8] |= 1 << (i % 8) }
func hasBit(b []byte, i int) bool { return b[i/8]&(1<<(i%8)) != 0 }

// pathEnds is how many step names a witness path keeps at each end; a
// longer path elides its middle as PathElision, so that n failures on a
// path of n steps cost O(n), not O(n²).
const pathEnds = 8

// PathElision stands for the steps left out of a long fail path.
const PathElision = "…"

// extendPath sets st's path bookkeeping from its parent's and its node's
// step name.
func (s *summary) extendPath(st *state, name string) {
	var head []string
	last := ""
	if st.parent >= 0 {
		p := s.states[st.parent]
		head, st.names, last = p.head, p.names, p.last
	}
	st.last = last
	if name == "" || name == last {
		st.head = head
		return
	}
	st.last = name
	st.names++
	if len(head) < pathEnds {
		head = append(head[:len(head):len(head)], name)
	}
	st.head = head
}

// steps returns the step names on the witness path to a state; a path of
// more than 2×pathEnds steps keeps pathEnds at each end around PathElision.
func (s *summary) steps(i int) []string {
	st := s.states[i]
	if st.names <= 2*pathEnds {
		return s.tail(i, st.names)
	}
	out := make([]string, 0, len(st.head)+1+pathEnds)
	out = append(append(out, st.head...), PathElision)
	return append(out, s.tail(i, pathEnds)...)
}

// joinSteps is the path a then b, its middle elided when it is long.
func joinSteps(a, b []string) []string {
	out := append(append([]string(nil), a...), b...)
	if len(out) <= 2*pathEnds+1 {
		return out
	}
	return append(append(out[:pathEnds:pathEnds], PathElision), out[len(out)-pathEnds:]...)
}

// tail returns the last n step names on the path to state i.
func (s *summary) tail(i, n int) []string {
	names := make([]string, 0, n)
	for ; i >= 0; i = s.states[i].parent {
		name := s.g.nodes[s.states[i].key.node].name
		if name == "" || (len(names) > 0 && names[len(names)-1] == name) {
			continue
		}
		if len(names) == n {
			break
		}
		names = append(names, name)
	}
	slices.Reverse(names)
	return names
}

// failPaths turns the failures into FailPaths, following failing subworkflow calls.
func (s *summary) failPaths() {
	seen := make(map[string]bool, len(s.failures))
	s.paths = slices.Grow(s.paths, len(s.failures))
	for _, f := range s.failures {
		prefix := s.steps(f.state)
		var list []FailPath
		if f.callee != nil {
			for _, c := range f.callee.paths {
				list = append(list, FailPath{Pos: c.Pos, Reason: c.Reason + " in subworkflow " + f.callee.g.scope.name,
					Steps: joinSteps(prefix, c.Steps), Kind: c.Kind})
			}
		} else {
			list = []FailPath{{Pos: f.pos, Reason: f.reason, Steps: prefix, Kind: failKind(f.reason)}}
		}
		for _, fp := range list {
			key := fmt.Sprintf("%v|%s|%v", fp.Pos, fp.Reason, f.df)
			if seen[key] {
				continue
			}
			seen[key] = true
			if f.df {
				s.doubles = append(s.doubles, fp)
			} else {
				s.paths = append(s.paths, fp)
			}
		}
	}
}
