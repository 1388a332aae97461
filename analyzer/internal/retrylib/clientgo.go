package retrylib

import (
	"go/ast"
	"go/types"
)

// clientgoRetry recognises the retries of clientgo; not read yet.
func clientgoRetry(info *types.Info, call *ast.CallExpr, fn *types.Func, enclosing *ast.BlockStmt) *Retrier {
	return nil
}
