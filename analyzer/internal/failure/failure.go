// Package failure is the vocabulary of failures that the retry-loop model
// (analyzer/retryloop) and the readers of retry libraries
// (analyzer/internal/retrylib) share: the sets of HTTP statuses and gRPC
// codes a failing path may carry, the names of the gRPC codes, which
// statuses, codes and words of an error's text name a failure that cannot
// succeed on retry (SPEC §2), how a circuit breaker's open error is
// recognised, and the words findings use for those failures.
//
// It holds plain data and small functions; nothing in it changes once the
// program runs.
package failure

import (
	"fmt"
	"go/ast"
	"strconv"
	"strings"

	"github.com/retrylint/retrylint/internal/lazyre"
)

// PermanentHTTP reports whether an HTTP status cannot succeed on retry:
// the request is malformed, unauthorised, forbidden, aimed at nothing, or
// invalid, and sending it again changes none of that.
func PermanentHTTP(status int) bool {
	switch status {
	case 400, 401, 403, 404, 405, 410, 422:
		return true
	}
	return false
}

// PermanentGRPC reports whether a gRPC code cannot succeed on retry:
// InvalidArgument, NotFound, PermissionDenied and Unauthenticated.
func PermanentGRPC(code int) bool {
	switch code {
	case 3, 5, 7, 16:
		return true
	}
	return false
}

// PermanentText reports whether the text an error is tested for names a
// failure that cannot pass on another try: unauthorized, forbidden,
// permission denied, compared as a whole and without regard to case.
// "invalid argument" is not among them: it is also the text of EINVAL,
// which a busy device gives and a later try passes.
func PermanentText(text string) bool {
	for _, w := range [...]string{
		"unauthorized", "unauthorised", "unauthenticated", "forbidden",
		"permission denied", "permissiondenied", "access denied", "accessdenied",
	} {
		if strings.EqualFold(text, w) {
			return true
		}
	}
	return false
}

// PermanentName reports whether the name of a sentinel error says the
// failure cannot pass on another try: ErrUnauthorized,
// ErrPermissionDenied, ErrGroupAuthorizationFailed, TopicAuthorizationFailed.
func PermanentName(name string) bool { return permanentName.MatchString(name) }

var permanentName = lazyre.New(`(?i)(unauthori[sz]ed|unauthenticated|forbidden|permission_?denied|access_?denied|auth(entication|orization)_?failed|invalid_?credentials)`)

// NotYetName reports whether the name of a sentinel error or of a
// predicate over errors says a thing does not exist or is not ready yet
// (ErrNotListening, isRepositoryNotProvisionedError, IsNotFound): a wait
// that goes round on it waits for a state, it does not retry a failure.
func NotYetName(name string) bool { return notYetName.MatchString(name) }

var notYetName = lazyre.New(`(?i)(not_?(found|ready|listening|exists?|provisioned|started|running|yet))|(does_?not_?exist)`)

// BreakerOpen reports whether the name of a sentinel error or an error
// type says that a circuit breaker is open: gobreaker.ErrOpenState,
// hystrix.ErrCircuitOpen, breaker.ErrBreakerOpen, a CircuitOpenError.
// The name is all there is to go on: no breaker library is known by its
// types.
func BreakerOpen(name string) bool {
	n := strings.ToLower(name)
	if n == "erropenstate" {
		return true
	}
	return strings.Contains(n, "open") && (strings.Contains(n, "circuit") || strings.Contains(n, "breaker"))
}

// StatusName reports whether the name of an integer a failure is tested by
// (a field, a variable, a method) says it holds an HTTP status: status,
// StatusCode, code, HTTPCode. A process's exit code (ExitCode() == 128) is
// no HTTP status, though 128 would be one.
func StatusName(name string) bool {
	n := strings.ToLower(name)
	if strings.Contains(n, "exit") {
		return false
	}
	return strings.Contains(n, "status") || strings.HasSuffix(n, "code")
}

// StatusNamed tells from its name whether an integer a failure is
// compared by holds an HTTP status or an error code: the name of the
// field, the variable or the function whose result it is
// (resp.StatusCode, code, apiErr.HTTPStatus()). named is false for an
// expression without a name to go by (an index, a sum), which may hold
// anything.
func StatusNamed(e ast.Expr) (status, named bool) {
	var id *ast.Ident
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		id = x.Sel
	case *ast.Ident:
		id = x
	case *ast.CallExpr:
		switch f := ast.Unparen(x.Fun).(type) {
		case *ast.Ident:
			id = f
		case *ast.SelectorExpr:
			id = f.Sel
		}
	}
	if id == nil {
		return false, false
	}
	return StatusName(id.Name), true
}

// DescribeHTTP names permanent HTTP statuses in a finding: "HTTP 400, 401".
func DescribeHTTP(statuses []int) string {
	parts := make([]string, len(statuses))
	for i, c := range statuses {
		parts[i] = strconv.Itoa(c)
	}
	return "HTTP " + strings.Join(parts, ", ")
}

// DescribeGRPC names a permanent gRPC code in a finding: "gRPC NotFound".
func DescribeGRPC(code int) string { return "gRPC " + GRPCName(code) }

// DescribeText names the errors a test of their text picks out as
// permanent: `errors whose text says "forbidden"`.
func DescribeText(words string) string {
	return fmt.Sprintf("errors whose text says %q", words)
}

// DescribeBreakerOpen names a circuit breaker's open error in a finding.
func DescribeBreakerOpen() string { return "the circuit breaker's open error" }
