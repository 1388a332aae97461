package workflows

import (
	"fmt"
	"strings"
)

// maxInline bounds how deeply subworkflow calls are followed when collecting calls, and
// maxFollowed how many subworkflow call sites are followed in all.
const (
	maxInline   = 16
	maxFollowed = 2000
)

// analyser holds the scopes of one source and caches their graphs and summaries.
type analyser struct {
	d           *decoder
	scopes      map[string]*scope
	graphs      map[string]*graph
	sums        map[string]*summary
	busy        map[string]bool
	approximate bool
	// approxPos and approxReason are the first bound hit.
	approxPos    Pos
	approxReason string
	followed     int
}

// approx records that a bound was hit at p.
func (a *analyser) approx(p Pos, reason string) {
	if !a.approximate || a.approxReason == "" {
		a.approxPos, a.approxReason = p, reason
	}
	a.approximate = true
}

// graph compiles a scope once.
func (a *analyser) graph(name string) (*graph, error) {
	if g, ok := a.graphs[name]; ok {
		return g, nil
	}
	g, err := compile(a.scopes[name])
	if err != nil {
		return nil, err
	}
	a.graphs[name] = g
	return g, nil
}

// summary analyses a scope once. A subworkflow still being analysed (recursion) has no summary
// yet; its calls are then taken as unable to fail.
func (a *analyser) summary(name string) *summary {
	if s, ok := a.sums[name]; ok {
		return s
	}
	if a.busy[name] {
		return nil
	}
	g := a.graphs[name]
	if g == nil {
		return nil
	}
	a.busy[name] = true
	s := explore(g, a.callee)
	s.failPaths()
	delete(a.busy, name)
	a.sums[name] = s
	if s.truncated {
		sc := a.scopes[name]
		a.approx(sc.pos, fmt.Sprintf("%s has more paths than the analysis follows (%d states); its failures and calls may be incomplete", name, maxStates))
	}
	return s
}

// callee returns the summary of the subworkflow fn, or nil when fn is not a subworkflow.
func (a *analyser) callee(fn string) *summary {
	if fn == "main" || a.scopes[fn] == nil {
		return nil
	}
	if s := a.summary(fn); s != nil {
		return s
	}
	return &summary{g: a.graphs[fn]} // recursive call: no known failures
}

// resolveRetries fills the signals of every retry policy in the source.
func (a *analyser) resolveRetries() {
	cache := map[string]*Retry{}
	var walk func(steps []*step, depth int)
	walk = func(steps []*step, depth int) {
		if depth > maxNesting*2 {
			return
		}
		for _, s := range steps {
			for _, c := range s.sw {
				if c.body != nil {
					walk([]*step{c.body}, depth+1)
				}
			}
			if s.loop != nil {
				walk(s.loop.body, depth+1)
			}
			if s.ploop != nil {
				walk(s.ploop.body, depth+1)
			}
			for _, b := range s.parallel {
				walk(b, depth+1)
			}
			walk(s.steps, depth+1)
			if t := s.try; t != nil {
				walk(t.body, depth+1)
				walk(t.except, depth+1)
				if t.retry != nil {
					a.fillPredicate(t.retry, cache)
					t.retry.Raised, _ = a.raisedIn(t.body, 0).signals()
				}
			}
		}
	}
	for _, sc := range a.scopes {
		walk(sc.steps, 0)
	}
}

// raisedIn is what the raise steps of a try body raise, as far as it is known: a map with a
// constant code is that HTTP status (raise: {code: 202, message: ...}). A nested try with an
// except catches what its own body raises, but not what its except raises.
func (a *analyser) raisedIn(steps []*step, depth int) signalSet {
	var set signalSet
	if depth > maxNesting*2 {
		return set
	}
	for _, s := range steps {
		if s.raise != nil && s.raise.node != nil {
			if c := a.d.mapGet(s.raise.node, "code"); c != nil {
				if f, ok, err := a.d.number(c); err == nil && ok && f == float64(int(f)) {
					set = set.or(codes(int(f)))
				}
			}
		}
		for _, c := range s.sw {
			if c.body == nil {
				continue
			}
			set = set.or(a.raisedIn([]*step{c.body}, depth+1))
			// raise: ${r} under a condition on r.code (the response itself, as in
			// "condition: ${r.code == 202}"): the codes the condition admits.
			if r := c.body.raise; r != nil && r.expr != nil && c.expr.expr != nil {
				if v := dottedName(r.expr); v != "" {
					if cs, ok := condSet(c.expr.expr, v, 0); ok {
						if only := cs.and(codeRange(codeLow, codeHigh)); only != codeRange(codeLow, codeHigh) {
							set = set.or(only)
						}
					}
				}
			}
		}
		if s.loop != nil {
			set = set.or(a.raisedIn(s.loop.body, depth+1))
		}
		if s.ploop != nil {
			set = set.or(a.raisedIn(s.ploop.body, depth+1))
		}
		for _, b := range s.parallel {
			set = set.or(a.raisedIn(b, depth+1))
		}
		set = set.or(a.raisedIn(s.steps, depth+1))
		if t := s.try; t != nil {
			if !t.hasExcept {
				set = set.or(a.raisedIn(t.body, depth+1))
			}
			set = set.or(a.raisedIn(t.except, depth+1))
		}
	}
	return set
}

// fillPredicate sets Signals, Any and Known of a retry policy from its predicate.
func (a *analyser) fillPredicate(r *Retry, cache map[string]*Retry) {
	if c, ok := cache[r.Predicate]; ok {
		r.Signals, r.Any, r.Known = c.Signals, c.Any, c.Known
		return
	}
	set, known := builtinPredicate(r.Predicate)
	if !known && a.scopes[r.Predicate] != nil && r.Predicate != "main" {
		set, known = a.predicateSet(r.Predicate)
	}
	if known {
		r.Signals, r.Any = set.signals()
		r.Known = true
	}
	cache[r.Predicate] = r
}

// siteInfo carries what the call sites of a followed subworkflow contribute to its calls.
type siteInfo struct {
	via       []string
	stack     []string // subworkflows being followed
	caught    bool
	handled   bool
	inExcept  bool
	retries   []*Retry // the retry policies around the call site, innermost first
	afterFail bool     // after the subworkflow returns, the caller can still fail
}

// collect gathers the external calls and notifications reachable in a scope.
func (a *analyser) collect(w *Workflow, name string, s *summary, bind env, site siteInfo, depth int, at Pos) {
	if s == nil {
		return
	}
	if depth > maxInline {
		chain := append(append([]string(nil), site.stack...), name)
		if len(chain) > 6 {
			chain = append(append(chain[:3:3], "…"), chain[len(chain)-2:]...)
		}
		a.approx(at, fmt.Sprintf("subworkflow calls nest more than %d deep (%s); the calls below are not followed", maxInline, strings.Join(chain, " → ")))
		return
	}
	if a.followed > maxFollowed {
		a.approx(at, fmt.Sprintf("more than %d subworkflow call sites; the calls of %s and later ones are not followed", maxFollowed, name))
		return
	}
	a.followed++
	vars := a.env(name, bind)
	g := s.g
	reach := g.reachable()
	for id, n := range g.nodes {
		if n.op != opCall || !reach[id] {
			continue
		}
		fn := n.call.function
		var retries []*Retry
		for t := n.try; t != nil; t = t.outer {
			retries = append(retries, t.retry)
		}
		retries = append(retries, site.retries...)
		caught := site.caught || s.caught(id)
		inExcept := site.inExcept || n.inExcept
		if sc := a.scopes[fn]; sc != nil && fn != "main" {
			if contains(site.stack, fn) || fn == name {
				continue // recursion: already followed
			}
			sub := a.summary(fn)
			if sub == nil {
				continue
			}
			args := env{}
			for _, p := range sc.params {
				if v := a.d.mapGet(n.call.args, p); v != nil {
					args[p] = a.d.valueOf(v, vars)
				}
			}
			a.collect(w, fn, sub, args, siteInfo{
				via:       append(append([]string(nil), site.via...), n.name),
				stack:     append(append([]string(nil), site.stack...), name),
				caught:    caught,
				handled:   site.handled || n.handled,
				inExcept:  inExcept,
				retries:   retries,
				afterFail: site.afterFail || s.okCanFail(id),
			}, depth+1, n.pos)
			continue
		}
		if !isExternal(fn) {
			continue
		}
		ct := a.resolveCall(n.call, vars)
		var retry *Retry
		var outer []*Retry
		if len(retries) > 0 {
			retry, outer = retries[0], retries[1:]
		}
		w.Calls = append(w.Calls, &Call{Outer: outer,
			Pos: n.pos, Step: n.name, Function: fn, Method: httpMethod(fn, a.d, n.call, vars), Target: ct.target, Waits: ct.waits,
			Timeout: ct.timeout, TimeoutDefault: ct.timeoutDefault, Retry: retry,
			TaskTimeout: ct.taskTimeout, TaskCount: ct.taskCount,
			Caught: caught, Handled: site.handled || n.handled, InExcept: inExcept,
			Via: site.via,
		})
		if inExcept && isNotification(fn) {
			url := ct.target.URL
			if url == "" {
				url = ct.target.Name
			}
			w.Notifications = append(w.Notifications, Notification{Pos: n.pos, Step: n.name, URL: url,
				BeforeFail: site.afterFail || s.okCanFail(id), Function: fn})
		}
	}
}

// httpMethod is the method of an http.* call: the function's (http.post is POST) or, for
// http.request, its method argument when known.
func httpMethod(fn string, d *decoder, c *callSpec, vars env) string {
	switch fn {
	case "http.get", "http.post", "http.put", "http.patch", "http.delete":
		return strings.ToUpper(strings.TrimPrefix(fn, "http."))
	case "http.request":
		if m := d.mapGet(c.args, "method"); m != nil {
			if v := d.valueOf(m, vars); v.known() && v.kind == valString {
				return strings.ToUpper(v.s)
			}
		}
	}
	return ""
}

// isNotification reports whether a call made in an except block tells someone of the failure.
func isNotification(fn string) bool {
	return strings.HasPrefix(fn, "http.") || strings.HasPrefix(fn, "googleapis.pubsub.") && strings.HasSuffix(fn, ".publish")
}

// caught reports whether every error of a call node is handled without the execution failing.
func (s *summary) caught(id int) bool {
	if !s.g.nodes[id].handled {
		return false
	}
	for _, i := range s.byNode[id] {
		st := s.states[i]
		if !st.raises {
			continue
		}
		if st.errFails {
			return false
		}
		if st.err >= 0 {
			t := s.states[st.err]
			if (t.key.df && s.canFailDF[st.err]) || (!t.key.df && s.canFail[st.err]) {
				return false
			}
		}
	}
	return true
}

// okCanFail reports whether, after the node completes normally, the execution can still fail
// (primary failures only, on paths that are not already double faults).
func (s *summary) okCanFail(id int) bool {
	for _, i := range s.byNode[id] {
		st := s.states[i]
		if st.key.df {
			continue
		}
		for _, t := range st.ok {
			if s.canFail[t] {
				return true
			}
		}
	}
	return false
}

// env computes the constants of a scope: variables assigned one statically known value.
// bind gives the values of the scope's parameters.
func (a *analyser) env(name string, bind env) env {
	vars := env{}
	unknown := map[string]bool{}
	sc := a.scopes[name]
	if sc == nil {
		return vars
	}
	for _, p := range sc.params {
		if v, ok := bind[p]; ok {
			vars[p] = v
		} else {
			unknown[p] = true
		}
	}
	set := func(name string, v value) {
		if unknown[name] {
			return
		}
		if old, ok := vars[name]; ok && old != v {
			unknown[name] = true
			delete(vars, name)
			return
		}
		if v.kind == valUnknown {
			unknown[name] = true
			delete(vars, name)
			return
		}
		vars[name] = v
	}
	var walk func(steps []*step, depth int)
	walk = func(steps []*step, depth int) {
		if depth > maxNesting*2 {
			return
		}
		for _, s := range steps {
			for _, as := range s.assigns {
				if !as.field {
					set(as.target, a.d.valueOf(as.value.node, vars))
				}
			}
			if s.call != nil && s.call.result != "" {
				set(s.call.result, unknownVal())
			}
			for _, c := range s.sw {
				if c.body != nil {
					walk([]*step{c.body}, depth+1)
				}
			}
			for _, l := range []*loopSpec{s.loop, s.ploop} {
				if l != nil {
					set(l.value, unknownVal())
					set(l.index, unknownVal())
					walk(l.body, depth+1)
				}
			}
			for _, b := range s.parallel {
				walk(b, depth+1)
			}
			walk(s.steps, depth+1)
			if t := s.try; t != nil {
				walk(t.body, depth+1)
				if t.as != "" {
					set(t.as, unknownVal())
				}
				walk(t.except, depth+1)
			}
		}
	}
	walk(sc.steps, 0)
	return vars
}

// paramReads lists the reads of main's parameters on reachable steps.
func (a *analyser) paramReads(w *Workflow, s *summary) {
	params := map[string]bool{}
	for _, p := range w.Params {
		params[p] = true
	}
	seen := map[ParamRead]bool{}
	reach := s.g.reachable()
	for id, n := range s.g.nodes {
		if !reach[id] {
			continue
		}
		for _, r := range n.reads {
			pr := ParamRead{Pos: r.pos, Path: r.path}
			if params[r.name] && !seen[pr] {
				seen[pr] = true
				w.ParamReads = append(w.ParamReads, pr)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
