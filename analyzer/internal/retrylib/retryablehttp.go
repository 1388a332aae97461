package retrylib

import (
	"go/ast"
	"go/types"
)

// retryablehttp recognises the retries of retryablehttp; not read yet.
func retryablehttp(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	return nil
}
