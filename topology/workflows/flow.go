package workflows

import (
	"fmt"
	"strings"
)

// opKind is what a control-flow node does.
type opKind int

const (
	opNop      opKind = iota
	opAssign          // defines one variable (or writes a field of one)
	opCall            // calls a function or subworkflow; may raise
	opCond            // a switch condition or a loop head: next when taken, alt otherwise
	opRaise           // raises to the handler
	opReturn          // ends the (sub)workflow successfully
	opExcept          // entry of an except block: defines the error variable
	opIter            // start of a loop iteration: defines the loop variables
	opLoopExit        // leaves a loop: its variables go out of scope
	opEnd             // successful end
	opFail            // the execution fails
)

const (
	endID  = 0
	failID = 1
)

// tryInfo is a try block whose retry policy covers the nodes inside it;
// outer is the next enclosing try with a retry policy in the same scope.
type tryInfo struct {
	retry *Retry
	outer *tryInfo
}

// node is one vertex of a scope's control-flow graph.
type node struct {
	op       opKind
	name     string // step name; "" for plumbing
	pos      Pos
	reads    []read
	defs     []string
	undefs   []string
	next     int
	alt      int
	always   bool // opCond with a literally true condition
	handler  int  // where an error raised here goes
	call     *callSpec
	try      *tryInfo // innermost enclosing try with a retry policy
	inExcept bool
	handled  bool // an enclosing try in this scope has an except
	reraise  string
	val      *subtree // the condition, returned or raised value, or loop range
}

// graph is the control flow of one scope.
type graph struct {
	scope *scope
	nodes []*node
	entry int
	vars  map[string]int // every variable assigned somewhere in the scope
}

// cctx is the compile context of a step list.
type cctx struct {
	names     map[string]int
	parent    *cctx
	handler   int
	brk, cont int
	try       *tryInfo
	handled   bool
	inExcept  bool
	exceptVar string
}

type fixup struct {
	id   int
	name string
	pos  Pos
}

type compiler struct {
	g      *graph
	global map[string]int
	fixups []fixup
}

// compile builds the control-flow graph of a scope.
func compile(sc *scope) (*graph, error) {
	g := &graph{scope: sc, vars: map[string]int{}}
	c := &compiler{g: g, global: map[string]int{}}
	c.add(&node{op: opEnd, next: -1, alt: -1})
	c.add(&node{op: opFail, next: -1, alt: -1})
	for _, p := range sc.params {
		g.addVar(p)
	}
	ctx := &cctx{handler: failID, brk: -1, cont: -1}
	entry, err := c.list(sc.steps, endID, ctx)
	if err != nil {
		return nil, err
	}
	g.entry = entry
	for _, f := range c.fixups {
		id, ok := c.global[f.name]
		if !ok {
			return nil, &Error{Pos: f.pos, Msg: fmt.Sprintf("next: no step named %q", f.name)}
		}
		g.nodes[f.id].next = id
	}
	g.keepReadVars()
	return g, nil
}

// keepReadVars narrows the tracked variables to those some step reads:
// whether a variable no step reads is assigned changes no path, and each
// tracked variable costs a bit in every explored state.
func (g *graph) keepReadVars() {
	read := make(map[string]bool)
	for _, n := range g.nodes {
		for _, r := range n.reads {
			read[r.name] = true
		}
	}
	names := make([]string, len(g.vars))
	for name, i := range g.vars {
		names[i] = name
	}
	g.vars = make(map[string]int, len(read))
	for _, name := range names {
		if read[name] {
			g.vars[name] = len(g.vars)
		}
	}
}

func (g *graph) addVar(name string) {
	if _, ok := g.vars[name]; !ok {
		g.vars[name] = len(g.vars)
	}
}

func (c *compiler) add(n *node) int {
	c.g.nodes = append(c.g.nodes, n)
	return len(c.g.nodes) - 1
}

// plain makes a node carrying the context's handler and flags.
func (c *compiler) plain(op opKind, name string, pos Pos, ctx *cctx) *node {
	return &node{op: op, name: name, pos: pos, next: -1, alt: -1, handler: ctx.handler,
		try: ctx.try, inExcept: ctx.inExcept, handled: ctx.handled}
}

// list compiles a step list; control continues at after when it runs off the end.
func (c *compiler) list(steps []*step, after int, ctx *cctx) (int, error) {
	if len(steps) == 0 {
		return after, nil
	}
	lctx := *ctx
	lctx.parent, lctx.names = ctx, map[string]int{}
	entries := make([]int, len(steps))
	for i, s := range steps {
		entries[i] = c.add(c.plain(opNop, s.name, s.pos, ctx))
		lctx.names[s.name] = entries[i]
		if _, dup := c.global[s.name]; !dup {
			c.global[s.name] = entries[i]
		}
	}
	for i, s := range steps {
		next := after
		if i+1 < len(steps) {
			next = entries[i+1]
		}
		if err := c.step(s, entries[i], next, &lctx); err != nil {
			return 0, err
		}
	}
	return entries[0], nil
}

// jump returns the node a "next:" goes to.
func (c *compiler) jump(name string, pos Pos, ctx *cctx) (int, error) {
	switch name {
	case "end":
		return endID, nil
	case "break", "continue":
		t := ctx.brk
		if name == "continue" {
			t = ctx.cont
		}
		if t < 0 {
			return 0, &Error{Pos: pos, Msg: fmt.Sprintf("next: %s outside a for loop", name)}
		}
		return t, nil
	}
	for x := ctx; x != nil; x = x.parent {
		if id, ok := x.names[name]; ok {
			return id, nil
		}
	}
	id := c.add(&node{op: opNop, next: -1, alt: -1, handler: ctx.handler})
	c.fixups = append(c.fixups, fixup{id, name, pos})
	return id, nil
}

// step compiles one step starting at its entry node.
func (c *compiler) step(s *step, entry, after int, ctx *cctx) error {
	cont := after
	if s.next != "" {
		var err error
		if cont, err = c.jump(s.next, s.nextPos, ctx); err != nil {
			return err
		}
	}
	cur := entry
	link := func(id int) {
		c.g.nodes[cur].next = id
		cur = id
	}
	for _, a := range s.assigns {
		n := c.plain(opAssign, s.name, a.keyPos, ctx)
		n.reads = append(append([]read(nil), a.value.reads...), a.keyRds...)
		if a.field {
			n.reads = append(n.reads, read{a.target, a.target, a.keyPos})
		} else {
			n.defs = []string{a.target}
			c.g.addVar(a.target)
		}
		link(c.add(n))
	}
	if s.call != nil {
		n := c.plain(opCall, s.name, s.call.pos, ctx)
		n.reads, n.call = s.call.argReads, s.call
		if s.call.result != "" {
			n.defs = []string{s.call.result}
			c.g.addVar(s.call.result)
		}
		link(c.add(n))
	}
	var err error
	terminal := false
	switch {
	case s.sw != nil:
		terminal = true
		err = c.switchStep(s, cur, after, cont, ctx)
	case s.loop != nil:
		cur, err = c.loop(s, s.loop, cur, ctx)
	case s.ploop != nil:
		cur, err = c.loop(s, s.ploop, cur, ctx)
	case s.parallel != nil:
		for i := len(s.parallel) - 1; i >= 0; i-- {
			bctx := *ctx
			bctx.brk, bctx.cont = -1, -1
			if cont, err = c.list(s.parallel[i], cont, &bctx); err != nil {
				return err
			}
		}
	case s.try != nil:
		terminal = true
		err = c.tryStep(s, cur, cont, ctx)
	case s.raise != nil:
		terminal = true
		n := c.plain(opRaise, s.name, s.raise.pos, ctx)
		n.reads, n.val = s.raise.reads, s.raise
		if id, ok := s.raise.expr.(identExpr); ok && ctx.exceptVar != "" && id.name == ctx.exceptVar {
			n.reraise = ctx.exceptVar
		}
		link(c.add(n))
	case s.ret != nil:
		terminal = true
		n := c.plain(opReturn, s.name, s.ret.pos, ctx)
		n.reads, n.next, n.val = s.ret.reads, endID, s.ret
		link(c.add(n))
	case s.hasSteps:
		var id int
		if id, err = c.list(s.steps, cont, ctx); err == nil {
			link(id)
			terminal = true
		}
	}
	if err != nil {
		return err
	}
	if !terminal {
		c.g.nodes[cur].next = cont
	}
	return nil
}

// switchStep compiles the conditions of a switch: each taken condition runs its embedded step,
// then continues at after; when none is taken control goes to cont.
func (c *compiler) switchStep(s *step, cur, after, cont int, ctx *cctx) error {
	prev, viaAlt := cur, false
	for _, cd := range s.sw {
		n := c.plain(opCond, s.name, cd.expr.pos, ctx)
		n.reads, n.always, n.val = cd.expr.reads, cd.always, &cd.expr
		id := c.add(n)
		if viaAlt {
			c.g.nodes[prev].alt = id
		} else {
			c.g.nodes[prev].next = id
		}
		if cd.body != nil {
			body := c.add(c.plain(opNop, s.name, cd.expr.pos, ctx))
			if err := c.step(cd.body, body, after, ctx); err != nil {
				return err
			}
			c.g.nodes[id].next = body
		} else {
			c.g.nodes[id].next = after
		}
		prev, viaAlt = id, true
		if cd.always {
			return nil
		}
	}
	if viaAlt {
		c.g.nodes[prev].alt = cont
	} else {
		c.g.nodes[prev].next = cont
	}
	return nil
}

// loop compiles a for loop; it returns the loop's exit node.
func (c *compiler) loop(s *step, l *loopSpec, cur int, ctx *cctx) (int, error) {
	head := c.plain(opCond, s.name, l.in.pos, ctx)
	head.reads, head.val = l.in.reads, &l.in
	headID := c.add(head)
	c.g.nodes[cur].next = headID
	var vars []string
	for _, v := range []string{l.value, l.index} {
		if v != "" {
			vars = append(vars, v)
			c.g.addVar(v)
		}
	}
	exit := c.plain(opLoopExit, "", s.pos, ctx)
	exit.undefs = vars
	exitID := c.add(exit)
	iter := c.plain(opIter, s.name, l.in.pos, ctx)
	iter.defs = vars
	iterID := c.add(iter)
	bctx := *ctx
	bctx.brk, bctx.cont = exitID, headID
	body, err := c.list(l.body, headID, &bctx)
	if err != nil {
		return 0, err
	}
	c.g.nodes[iterID].next = body
	c.g.nodes[headID].next = iterID
	c.g.nodes[headID].alt = exitID
	return exitID, nil
}

// tryStep compiles try/retry/except.
func (c *compiler) tryStep(s *step, cur, cont int, ctx *cctx) error {
	t := s.try
	tctx := *ctx
	if t.retry != nil {
		tctx.try = &tryInfo{retry: t.retry, outer: ctx.try}
	}
	if t.hasExcept {
		ex := c.plain(opExcept, s.name, s.pos, ctx)
		if t.as != "" {
			ex.defs = []string{t.as}
			c.g.addVar(t.as)
		}
		exID := c.add(ex)
		ectx := *ctx
		ectx.inExcept, ectx.exceptVar = true, t.as
		body, err := c.list(t.except, cont, &ectx)
		if err != nil {
			return err
		}
		c.g.nodes[exID].next = body
		tctx.handler, tctx.handled = exID, true
	}
	body, err := c.list(t.body, cont, &tctx)
	if err != nil {
		return err
	}
	// A single-call try body is an unnamed step sharing the try step's name: run it in place.
	c.g.nodes[cur].next = body
	return nil
}

// describeCall names the failure of a call that reaches the end of the execution.
func describeCall(n *node) string {
	fn := n.call.function
	switch {
	case n.inExcept:
		return fmt.Sprintf("error from %s in except, outside any try", fn)
	case n.try != nil:
		return fmt.Sprintf("error from %s after retries are exhausted (no except)", fn)
	}
	return fmt.Sprintf("error from %s outside any try", fn)
}

// stepNames turns a list of node names into a step path without repeats.
func stepNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n == "" || (len(out) > 0 && out[len(out)-1] == n) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// isExternal reports whether a call: function invokes something outside the workflow.
func isExternal(fn string) bool {
	for _, p := range []string{"http.", "googleapis.", "experimental.executions."} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// canRaise reports whether a standard-library call can fail on its own (not only on bad data).
func canRaise(fn string) bool {
	return isExternal(fn) || fn == "events.await_callback"
}

// reachable returns the nodes reachable from the entry in the graph alone, taking every error
// edge: the steps that can run, whether or not a path to them fails first on a variable read.
func (g *graph) reachable() []bool {
	seen := make([]bool, len(g.nodes))
	stack := []int{g.entry}
	seen[g.entry] = true
	for len(stack) > 0 {
		n := g.nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		next := []int{n.next, n.alt}
		if n.op != opNop && n.op != opEnd && n.op != opFail {
			next = append(next, n.handler)
		}
		if n.op == opCond && n.always {
			next[1] = -1
		}
		for _, t := range next {
			if t >= 0 && !seen[t] {
				seen[t] = true
				stack = append(stack, t)
			}
		}
	}
	return seen
}
