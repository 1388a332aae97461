package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// localCalls are calls that look at the local machine: a loop that waits
// until one of them succeeds polls for readiness (a device node appears, a
// socket file is created), it does not retry a dependency.
var localCalls = map[string][]string{
	"os":                     {"Stat", "Lstat", "Open", "OpenFile", "ReadFile", "ReadDir", "Readlink"},
	"path/filepath":          {"Glob", "EvalSymlinks", "Abs"},
	"syscall":                {"Stat", "Lstat", "Access", "Open"},
	"golang.org/x/sys/unix":  {"Stat", "Lstat", "Access", "Open", "Faccessat"},
	"os/exec":                {"LookPath"},
	"golang.org/x/sys/linux": {"Stat"},
}

// localCheck reports whether op only inspects the local machine.
func (a *checker) localCheck(op *ast.CallExpr) bool {
	fn := a.callee(op)
	if fn == nil {
		return false
	}
	if isPkgFunc(fn, funcPath(fn), localCalls[funcPath(fn)]...) {
		return true
	}
	if a.toLocalHost(op) || a.probesHealth(op) {
		return true
	}
	// (*os.File).Stat and friends
	return recvNamed(fn) != nil && isNamed(recvNamed(fn), "os", "File") && (fn.Name() == "Stat" || fn.Name() == "Readdirnames")
}

// oneShot reports whether a select case receives from a channel that fires
// once and was made before the loop: timeout := time.After(d), or a timer
// the loop never resets. Such a case ends the retries at a deadline; it is
// not the wait between them.
func (w *walker) oneShot(recv ast.Expr) bool {
	switch x := ast.Unparen(recv).(type) {
	case *ast.Ident:
		obj := w.info().ObjectOf(x)
		if obj == nil || !isTimeChan(obj.Type()) {
			return false
		}
		return w.madeBeforeLoop(obj, "After")
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		obj := w.objOf(x.X)
		if obj == nil || !isNamed(obj.Type(), "time", "Timer") {
			return false
		}
		for _, r := range w.fc.resets[obj] {
			if w.lc.contains(r.Pos()) {
				return false
			}
		}
		return w.madeBeforeLoop(obj, "NewTimer")
	}
	return false
}

// madeBeforeLoop reports whether every assignment of obj precedes the loop
// and one of them calls time.<maker>.
func (w *walker) madeBeforeLoop(obj types.Object, maker string) bool {
	made := false
	for _, as := range w.fc.assigns[obj] {
		if w.lc.contains(as.pos) {
			return false
		}
		if call, ok := ast.Unparen(as.rhs).(*ast.CallExpr); ok && isPkgFunc(w.a.callee(call), "time", maker) {
			made = true
		}
	}
	return made
}

// localProbe matches a URL of this machine's server root or health
// endpoint written in the code: http://localhost:%d,
// http://127.0.0.1:8080/healthz. A request elsewhere on this machine (a
// sidecar's /v1.0/invoke/...) reaches what the sidecar forwards to.
var localProbe = lazyre.New(`(?i)^https?://(localhost|127\.0\.0\.1|\[::1\])(:[^/]*)?(/|/[^?]*(health|ready|readiness|live|liveness|ping|status)[^?]*)?$`)

// toLocalHost reports whether an operation is a request to this machine's
// server root or health endpoint, by a constant written in the call
// (http.Get(fmt.Sprintf("http://localhost:%d", port))): going round on it
// waits for a local server to come up, a readiness poll, not a retry
// against a dependency.
func (a *checker) toLocalHost(op *ast.CallExpr) bool {
	for _, arg := range op.Args {
		arg = ast.Unparen(arg)
		if c, ok := arg.(*ast.CallExpr); ok && isPkgFunc(a.callee(c), "fmt", "Sprintf") && len(c.Args) > 0 {
			arg = c.Args[0]
		}
		if tv := a.info().Types[arg]; tv.Value != nil && tv.Value.Kind() == constant.String && localProbe.MatchString(constant.StringVal(tv.Value)) {
			return true
		}
	}
	return false
}

// healthPath matches the path of a health or readiness endpoint as code
// appends it to a base URL: "/healthz", "/health?bundles", "/readyz".
var healthPath = lazyre.New(`(?i)^/(health|healthz|healthcheck|ready|readyz|readiness|livez|liveness|ping)(\?[^/]*)?$`)

// probesHealth reports whether an operation asks a server's health or
// readiness endpoint: a URL argument ending in a constant health path
// (http.Get(base + "/healthz")), or a function of the package that
// appends one to the URL it builds (t.HealthCheck(t.URL()) adding
// "/health"). Going round on it waits for that server to come up: a
// readiness poll, whoever the server is.
func (a *checker) probesHealth(op *ast.CallExpr) bool {
	for _, arg := range op.Args {
		if b, ok := ast.Unparen(arg).(*ast.BinaryExpr); ok && b.Op == token.ADD && a.isHealthPath(b.Y) {
			return true
		}
	}
	fn := a.callee(op)
	decl := a.decls[fn]
	if fn == nil || decl == nil || !a.doesIO(op) {
		return false
	}
	return anyNode(decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			return n.Tok == token.ADD_ASSIGN && len(n.Rhs) == 1 && a.isHealthPath(n.Rhs[0])
		case *ast.BinaryExpr:
			return n.Op == token.ADD && a.isHealthPath(n.Y)
		}
		return false
	})
}

// isHealthPath reports whether e is a constant health endpoint path.
func (a *checker) isHealthPath(e ast.Expr) bool {
	tv := a.info().Types[e]
	return tv.Value != nil && tv.Value.Kind() == constant.String && healthPath.MatchString(constant.StringVal(tv.Value))
}
