package failure

import "go/types"

// GRPCCodes is the number of gRPC status codes, OK (0) to Unauthenticated
// (16).
const GRPCCodes = 17

// GRPCName returns the name of a gRPC code as package codes spells it
// (5 is NotFound), "" for a number that is no code.
func GRPCName(code int) string {
	names := [GRPCCodes]string{"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded",
		"NotFound", "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
		"Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"}
	if code < 0 || code >= GRPCCodes {
		return ""
	}
	return names[code]
}

// GRPCConfigCode reads a gRPC code as a service config or a status proto
// spells it ("NOT_FOUND" is 5).
func GRPCConfigCode(name string) (int, bool) {
	names := [GRPCCodes]string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
		"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
		"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"}
	for c, n := range names {
		if n == name {
			return c, true
		}
	}
	return 0, false
}

// IsGRPCCode reports whether t is a gRPC status code: codes.Code of
// google.golang.org/grpc/codes, vendored or not, or of any package named
// codes that mirrors it.
func IsGRPCCode(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Code" && n.Obj().Pkg() != nil && n.Obj().Pkg().Name() == "codes"
}
