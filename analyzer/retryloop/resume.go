package retryloop

import (
	"go/ast"
	"go/types"
)

// FormResume is a retry whose loop is in the caller: a Read method that,
// after its source failed, waits (and reopens it) and returns no error,
// so the caller's read loop calls it again.
const FormResume Form = "resume"

// modeResume walks a resumable Read: a return with a nil error after a
// failure and a wait is the next round, in the caller.
const modeResume = modeAttempt + 1

// resume finds a Read method that retries through its caller.
func (a *checker) resume(fc *funcCtx) *Loop {
	fd, ok := fc.fn.(*ast.FuncDecl)
	if !ok || fd.Recv == nil || fd.Name.Name != "Read" || fc.obj == nil || !isReadSig(fc.obj.Signature()) || !a.mayResume(fd.Body) {
		return nil
	}
	lc := &loopCtx{mode: modeResume, start: fd.Body.Pos(), end: fd.Body.End()}
	fc.countersIn(lc)
	w := &walker{a: a, fc: fc, lc: lc}
	out := w.stmts(fd.Body.List, []*path{newPath()}, scope{})
	w.exit(out, fd.Body)
	return a.finish(w, FormResume, fd, fd.Name.Pos())
}

// isReadSig reports whether a signature is io.Reader's Read.
func isReadSig(sig *types.Signature) bool {
	if sig.Params().Len() != 1 || sig.Results().Len() != 2 {
		return false
	}
	sl, ok := sig.Params().At(0).Type().Underlying().(*types.Slice)
	if !ok || !types.Identical(sl.Elem(), types.Typ[types.Byte]) {
		return false
	}
	return types.Identical(sig.Results().At(0).Type(), types.Typ[types.Int]) && isError(sig.Results().At(1).Type())
}

// mayResume is a quick look for a return with a nil error, before
// walking the body.
func (a *checker) mayResume(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = found || resumes(n)
		}
		return !found
	})
	return found
}

// resumes reports whether a return of a Read gives no error and no
// bytes: the caller is asked to read again.
func resumes(r *ast.ReturnStmt) bool {
	if len(r.Results) != 2 || !isNilIdent(r.Results[1]) {
		return false
	}
	lit, ok := ast.Unparen(r.Results[0]).(*ast.BasicLit)
	return ok && lit.Value == "0"
}

// resumeReturn splits the paths reaching a return of a resumable Read:
// those that failed and waited go round through the caller, the rest
// leave.
func (w *walker) resumeReturn(r *ast.ReturnStmt, in []*path) {
	if !resumes(r) {
		w.exit(in, r)
		return
	}
	for _, p := range in {
		if p.failedOp() != nil && len(p.waits) > 0 {
			w.round([]*path{p}, r)
		} else {
			w.exit([]*path{p}, r)
		}
	}
}
