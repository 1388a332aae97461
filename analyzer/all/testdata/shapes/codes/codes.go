// Package codes mirrors gRPC's status codes.
package codes

// Code is a gRPC status code.
type Code uint32

const (
	OK               Code = 0
	InvalidArgument  Code = 3
	NotFound         Code = 5
	PermissionDenied Code = 7
	Unavailable      Code = 14
	Unauthenticated  Code = 16
)

// Coded is an error that carries a code.
type Coded interface{ Code() Code }

// Of returns the code of err: OK for nil.
func Of(err error) Code {
	if err == nil {
		return OK
	}
	if c, ok := err.(Coded); ok {
		return c.Code()
	}
	return Unavailable
}
