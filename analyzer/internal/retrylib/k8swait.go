package retrylib

import (
	"go/ast"
	"go/types"
)

// k8sWait recognises the retries of k8swait; not read yet.
func k8sWait(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	return nil
}
