// Package codelayer reads the topology's app layer from Go code. The code
// half finds the retry loops of the packages (analyzer/retryloop); this
// package finds which of them reach the function that a call of the
// topology file names (`func:`), directly, through wrappers that retry a
// function value, and across packages, and turns them into retry layers:
// retries, the failure signals retried, the backoff, and the loop's place.
package codelayer

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/analyzer/retryloop"
	"github.com/retrylint/retrylint/topology"
)

// Index holds the retry loops of analysed packages and the calls between
// their functions.
type Index struct {
	workDir string // reported paths are relative to it
	pkgs    map[string]*packages.Package
	funcs   map[*types.Func]*fnInfo
	callees map[*types.Func]bool // every function some indexed function calls
}

// fnInfo is one function declaration of an indexed package.
type fnInfo struct {
	obj   *types.Func
	pkg   *packages.Package
	loops []*retryloop.Loop // the loops of its body, function literals included
	sites []site
	// wraps lists, per parameter, the loops that retry the function value
	// the parameter holds: the function is a retry wrapper.
	wraps map[int][]*retryloop.Loop
	// hosts are the hosts of the URLs its body holds as string literals
	// or constants.
	hosts map[string]bool
}

// site is a call, or a function value passed on, in a function body.
type site struct {
	pos    token.Pos
	callee *types.Func
	// through are the calls of retry wrappers the site sits in an
	// argument of: the wrapper's loops retry it.
	through []wrapped
}

type wrapped struct {
	fn  *types.Func
	arg int
}

// FromGraph indexes the retry loops that a run of the analyzers found: the
// results of retryloop.Analyzer on the root packages of g. Paths are
// reported relative to workDir.
func FromGraph(g *checker.Graph, workDir string) *Index {
	ix := &Index{workDir: workDir, pkgs: map[string]*packages.Package{}, funcs: map[*types.Func]*fnInfo{}, callees: map[*types.Func]bool{}}
	for act := range g.All() {
		if act.Analyzer != retryloop.Analyzer || !act.IsRoot || act.Err != nil {
			continue
		}
		res, ok := act.Result.(*retryloop.Result)
		if !ok || act.Package.TypesInfo == nil {
			continue
		}
		ix.add(act.Package, res)
	}
	return ix
}

// Has reports whether the package of path was indexed.
func (ix *Index) Has(path string) bool { return ix.pkgs[path] != nil }

func (ix *Index) add(p *packages.Package, res *retryloop.Result) {
	if ix.pkgs[p.PkgPath] != nil && p.ForTest == "" {
		return // the test variant, a superset, is there already
	}
	ix.pkgs[p.PkgPath] = p
	info := p.TypesInfo
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			decl, ok := d.(*ast.FuncDecl)
			if !ok || decl.Body == nil {
				continue
			}
			obj, ok := info.Defs[decl.Name].(*types.Func)
			if !ok {
				continue
			}
			fi := &fnInfo{obj: obj, pkg: p, wraps: map[int][]*retryloop.Loop{}}
			for _, l := range res.Loops {
				if l.Form == retryloop.FormRunner {
					// A runner's call is the runner's own layer, reached
					// through the wrapper calls below.
					continue
				}
				if decl.Pos() <= l.Pos && l.Pos < decl.End() {
					fi.loops = append(fi.loops, l)
				}
			}
			fi.sites = ix.sites(info, decl.Body)
			fi.hosts = hostsIn(info, decl.Body)
			params := paramIndex(info, decl)
			for _, l := range fi.loops {
				for _, i := range retriedParams(info, l, params) {
					fi.wraps[i] = append(fi.wraps[i], l)
				}
			}
			ix.funcs[obj] = fi
		}
	}
}

// sites lists the calls of body and the functions it passes as values,
// each with the wrapper calls whose arguments hold it.
func (ix *Index) sites(info *types.Info, body *ast.BlockStmt) []site {
	var out []site
	type open struct {
		call *ast.CallExpr
		fn   *types.Func
	}
	var stack []open
	var nodes []ast.Node
	through := func(pos token.Pos) []wrapped {
		var w []wrapped
		for _, o := range stack {
			if o.fn == nil {
				continue
			}
			for i, a := range o.call.Args {
				if a.Pos() <= pos && pos < a.End() {
					w = append(w, wrapped{o.fn, i})
				}
			}
		}
		return w
	}
	add := func(pos token.Pos, fn *types.Func) {
		fn = fn.Origin()
		ix.callees[fn] = true
		out = append(out, site{pos: pos, callee: fn, through: through(pos)})
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			top := nodes[len(nodes)-1]
			nodes = nodes[:len(nodes)-1]
			if len(stack) > 0 && ast.Node(stack[len(stack)-1].call) == top {
				stack = stack[:len(stack)-1]
			}
			return true
		}
		nodes = append(nodes, n)
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn, _ := typeutil.Callee(info, call).(*types.Func)
		if fn != nil {
			add(call.Lparen, fn)
		}
		for _, a := range call.Args {
			if ref := funcRef(info, a); ref != nil {
				add(a.Pos(), ref)
			}
		}
		stack = append(stack, open{call, fn})
		return true
	})
	return out
}

// funcRef is the function an argument passes as a value (f, c.Method,
// pkg.F), or nil.
func funcRef(info *types.Info, e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[e]; ok {
			if sel.Kind() == types.MethodVal {
				fn, _ := sel.Obj().(*types.Func)
				return fn
			}
			return nil
		}
		fn, _ := info.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

func paramIndex(info *types.Info, decl *ast.FuncDecl) map[types.Object]int {
	out := map[types.Object]int{}
	i := 0
	for _, f := range decl.Type.Params.List {
		if len(f.Names) == 0 {
			i++
			continue
		}
		for _, n := range f.Names {
			if obj := info.Defs[n]; obj != nil {
				out[obj] = i
			}
			i++
		}
	}
	return out
}

// retriedParams lists the parameters whose function value loop l retries.
func retriedParams(info *types.Info, l *retryloop.Loop, params map[types.Object]int) []int {
	var out []int
	note := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if i, ok := params[info.Uses[id]]; ok && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	for _, op := range l.Ops {
		note(op.Fun)
	}
	if l.Library != nil && l.Library.Op != nil {
		note(l.Library.Op)
	}
	return out
}

// Name renders a function as the topology file names it:
// "example.com/app/client.(*Client).Do", "example.com/app/client.New".
func Name(fn *types.Func) string {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Path() + "."
	}
	sig, _ := fn.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return pkg + fn.Name()
	}
	t := sig.Recv().Type()
	ptr := false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	recv := types.TypeString(t, func(*types.Package) string { return "" })
	if i := strings.IndexByte(recv, '['); i >= 0 {
		recv = recv[:i]
	}
	if ptr {
		return pkg + "(*" + recv + ")." + fn.Name()
	}
	return pkg + recv + "." + fn.Name()
}

// shortName is a function's name without its package path, for messages.
func shortName(fn *types.Func) string {
	n := Name(fn)
	if fn.Pkg() != nil {
		path := fn.Pkg().Path()
		n = path[strings.LastIndexByte(path, '/')+1:] + strings.TrimPrefix(n, path)
	}
	return n
}

// matcher reads a `func:` pattern: a full name, a name whose leading path
// elements are left out ("gemini.(*Client).Generate"), with `*` for any
// run of characters.
func matcher(pattern string) *regexp.Regexp {
	parts := strings.Split(pattern, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`^(?:.*/)?` + strings.Join(parts, ".*") + `$`)
}

// best is the worst case of loops on the way from a function to a target.
type best struct {
	layers []*retryloop.Loop // outermost first
	fns    []*types.Func     // the function holding each
	count  count
}

// count is a number of attempts that saturates, or unbounded.
type count struct {
	n         int64
	unbounded bool
}

func (c count) mul(l *retryloop.Loop) count {
	r, unbounded := retriesOf(l)
	if unbounded || c.unbounded {
		return count{unbounded: true}
	}
	m := int64(r) + 1
	if c.n > (1<<62)/m {
		return count{n: 1 << 62}
	}
	return count{n: c.n * m}
}

func (c count) less(d count) bool {
	if c.unbounded {
		return false
	}
	return d.unbounded || c.n < d.n
}

type query struct {
	ix      *Index
	targets map[*types.Func]bool
	memo    map[*types.Func]*best
	busy    map[*types.Func]bool
}

// Layers returns the retry loops of the packages in source whose operation
// reaches a function that pattern names, outermost first, on the path that
// multiplies most; an error when pattern names no function.
func (ix *Index) Layers(source []string, label, pattern string) ([]topology.CodeLayer, error) {
	re := matcher(pattern)
	q := ix.newQuery()
	for fn := range ix.funcs {
		if re.MatchString(Name(fn)) {
			q.targets[fn] = true
		}
	}
	for fn := range ix.callees {
		if re.MatchString(Name(fn)) {
			q.targets[fn] = true
		}
	}
	if len(q.targets) == 0 {
		return nil, fmt.Errorf("matches no function of %s (name it as \"import/path.Func\" or \"import/path.(*Type).Method\")", label)
	}
	return q.layers(source), nil
}

// HostLayers is Layers for the functions of source whose body holds a URL
// on host; found is false when none does.
func (ix *Index) HostLayers(source []string, host string) (layers []topology.CodeLayer, found bool) {
	q := ix.newQuery()
	in := map[string]bool{}
	for _, p := range source {
		in[p] = true
	}
	for fn, fi := range ix.funcs {
		if in[fi.pkg.PkgPath] && fi.hosts[host] {
			q.targets[fn] = true
		}
	}
	if len(q.targets) == 0 {
		return nil, false
	}
	return q.layers(source), true
}

func (ix *Index) newQuery() *query {
	return &query{ix: ix, targets: map[*types.Func]bool{}, memo: map[*types.Func]*best{}, busy: map[*types.Func]bool{}}
}

// layers is the worst case over the functions of source.
func (q *query) layers(source []string) []topology.CodeLayer {
	ix := q.ix
	in := map[string]bool{}
	for _, p := range source {
		in[p] = true
	}
	// Entry points in a stable order: the worst case ties to the first.
	var entries []*fnInfo
	for _, fi := range ix.funcs {
		if in[fi.pkg.PkgPath] {
			entries = append(entries, fi)
		}
	}
	slices.SortFunc(entries, func(a, b *fnInfo) int { return int(a.obj.Pos() - b.obj.Pos()) })
	var top *best
	for _, fi := range entries {
		if b := q.worst(fi.obj); b != nil && (top == nil || top.count.less(b.count)) {
			top = b
		}
	}
	if top == nil {
		return nil
	}
	out := make([]topology.CodeLayer, len(top.layers))
	for i, l := range top.layers {
		out[i] = ix.layer(l, top.fns[i])
	}
	return out
}

// hostsIn lists the hosts of the URLs a body holds: string literals and
// string constants that parse as absolute URLs.
func hostsIn(info *types.Info, body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	note := func(s string) {
		if !strings.Contains(s, "://") {
			return
		}
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" {
			out[strings.ToLower(u.Hostname())] = true
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				if s, err := strconv.Unquote(n.Value); err == nil {
					note(s)
				}
			}
		case *ast.Ident:
			if c, ok := info.Uses[n].(*types.Const); ok && c.Val().Kind() == constant.String {
				note(constant.StringVal(c.Val()))
			}
		}
		return true
	})
	return out
}

// worst is the worst case of loops on the way from fn to a target,
// fn's own loops first; nil when fn reaches no target.
func (q *query) worst(fn *types.Func) *best {
	if b, ok := q.memo[fn]; ok {
		return b
	}
	if q.busy[fn] {
		return nil
	}
	q.busy[fn] = true
	defer delete(q.busy, fn)
	fi := q.ix.funcs[fn]
	var out *best
	consider := func(b *best) {
		if out == nil || out.count.less(b.count) {
			out = b
		}
	}
	if q.targets[fn] {
		// The target's own loops retry what it does.
		consider(&best{count: count{n: 1}})
		if fi != nil {
			for _, s := range fi.sites {
				consider(q.around(fi, s, &best{count: count{n: 1}}))
			}
		}
	}
	if fi != nil {
		for _, s := range fi.sites {
			if b := q.worst(s.callee); b != nil {
				consider(q.around(fi, s, b))
			}
		}
	}
	q.memo[fn] = out
	return out
}

// around puts the loops of fi that retry site s, and those of the retry
// wrappers whose argument holds it, outside inner.
func (q *query) around(fi *fnInfo, s site, inner *best) *best {
	type held struct {
		l  *retryloop.Loop
		fn *types.Func
	}
	var ls []held
	for _, l := range fi.loops {
		if l.Node != nil && l.Node.Pos() <= s.pos && s.pos < l.Node.End() {
			ls = append(ls, held{l, fi.obj})
		}
	}
	for _, w := range s.through {
		if wi := q.ix.funcs[w.fn.Origin()]; wi != nil {
			for _, l := range wi.wraps[w.arg] {
				ls = append(ls, held{l, wi.obj})
			}
		}
	}
	if len(ls) == 0 {
		return inner
	}
	// Outermost first: a loop of fi that encloses another comes before
	// it; a wrapper's loop retries the call inside fi's loops.
	slices.SortStableFunc(ls, func(a, b held) int {
		switch {
		case a.fn != b.fn:
			return 0
		case a.l.Node.Pos() <= b.l.Node.Pos() && b.l.Node.End() <= a.l.Node.End() && a.l != b.l:
			return -1
		case b.l.Node.Pos() <= a.l.Node.Pos() && a.l.Node.End() <= b.l.Node.End() && a.l != b.l:
			return 1
		}
		return 0
	})
	out := &best{count: inner.count}
	for _, h := range ls {
		out.layers = append(out.layers, h.l)
		out.fns = append(out.fns, h.fn)
		out.count = out.count.mul(h.l)
	}
	out.layers = append(out.layers, inner.layers...)
	out.fns = append(out.fns, inner.fns...)
	return out
}

// retriesOf reads a loop's retries: its attempts less one, or unbounded
// when no constant bounds them.
func retriesOf(l *retryloop.Loop) (int, bool) {
	if l.Attempts > 0 {
		return l.Attempts - 1, false
	}
	return 0, true
}

// layer turns a loop into a retry layer of the topology.
func (ix *Index) layer(l *retryloop.Loop, fn *types.Func) topology.CodeLayer {
	fset := ix.pkgs[fn.Pkg().Path()].Fset
	p := fset.Position(l.Pos)
	file := p.Filename
	if rel, err := filepath.Rel(ix.workDir, file); err == nil {
		file = rel
	}
	cl := topology.CodeLayer{Pos: topology.Pos{File: filepath.ToSlash(file), Line: p.Line, Col: p.Column},
		Func: shortName(fn), Predicate: predicate(l), Backoff: backoff(l)}
	cl.Retries, cl.Unbounded = retriesOf(l)
	cl.CountUnknown = cl.Unbounded && l.Bound != retryloop.BoundNone
	if cl.Unbounded {
		switch l.Bound {
		case retryloop.BoundDeadline:
			cl.Note = "bounded by a deadline, not by a count"
		case retryloop.BoundContext:
			cl.Note = "bounded only by its context"
		case retryloop.BoundAttempts:
			cl.Note = "an attempt limit that is not a constant"
		default:
			cl.Note = "no attempt limit"
		}
	}
	return cl
}

// predicate maps what a loop retries to the topology's signals: HTTP
// statuses to http-NNN (a whole class to http-Nxx), gRPC codes to the
// statuses gRPC maps them to, an unclassified retry to every failure.
func predicate(l *retryloop.Loop) topology.Predicate {
	rc := l.Retried
	if rc == nil {
		if l.Classified {
			return topology.Predicate{Known: false, Name: "a classification that names no status or code"}
		}
		return topology.Predicate{Any: true, Known: true}
	}
	if rc.All {
		return topology.Predicate{Any: true, Known: true}
	}
	var sigs topology.Signals
	for _, class := range []int{400, 500} {
		var codes []int
		for _, c := range rc.HTTP {
			if c >= class && c < class+100 {
				codes = append(codes, c)
			}
		}
		if len(codes) == 100 {
			sigs = append(sigs, topology.Signal(fmt.Sprintf("http-%dxx", class/100)))
			continue
		}
		for _, c := range codes {
			sigs = append(sigs, topology.Signal(fmt.Sprintf("http-%d", c)))
		}
	}
	for _, name := range rc.GRPC {
		if s, ok := grpcSignal[name]; ok {
			sigs = append(sigs, s)
		}
	}
	return topology.Predicate{Signals: sigs.Normalize(), Known: true, Custom: true}
}

// grpcSignal is the HTTP status each gRPC code stands for (the mapping of
// the gRPC-HTTP gateways), the signal a topology predicate matches.
var grpcSignal = map[string]topology.Signal{
	"Canceled": "http-499", "Unknown": topology.SigHTTP500, "InvalidArgument": "http-400",
	"DeadlineExceeded": topology.SigHTTP504, "NotFound": "http-404", "AlreadyExists": "http-409",
	"PermissionDenied": "http-403", "ResourceExhausted": topology.SigHTTP429,
	"FailedPrecondition": "http-400", "Aborted": "http-409", "OutOfRange": "http-400",
	"Unimplemented": "http-501", "Internal": topology.SigHTTP500, "Unavailable": topology.SigHTTP503,
	"DataLoss": topology.SigHTTP500, "Unauthenticated": "http-401",
}

// backoff reads the shape of a loop's waits: none, constant, growing,
// random; a constant first wait written as a duration literal is kept.
func backoff(l *retryloop.Loop) *topology.Backoff {
	if len(l.Waits) == 0 {
		if l.Library == nil || !l.Library.Waits {
			return nil
		}
	}
	b := &topology.Backoff{Multiplier: 1, Jitter: "none"}
	var d retryloop.Delay
	for _, w := range l.Waits {
		d.Grows = d.Grows || w.Source.Grows
		d.Random = d.Random || w.Source.Random
		d.Capped = d.Capped || w.Source.Capped
		if v, err := time.ParseDuration(w.Source.Value); err == nil && b.Initial == 0 {
			b.Initial = v.Seconds()
		}
	}
	if l.Library != nil {
		d.Grows = d.Grows || l.Library.Delay.Grows
		d.Random = d.Random || l.Library.Delay.Random
	}
	if d.Grows {
		b.Multiplier = 2
	}
	if d.Random {
		b.Jitter = "full"
	}
	return b
}
