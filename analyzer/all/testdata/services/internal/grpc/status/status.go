// Package status mirrors the parts of google.golang.org/grpc/status that
// clients use: building status errors and reading the code back.
package status

import (
	"errors"
	"fmt"

	"services/internal/grpc/codes"
)

// Status represents an RPC status code and message.
type Status struct {
	code codes.Code
	msg  string
}

// New returns a Status representing c and msg.
func New(c codes.Code, msg string) *Status { return &Status{code: c, msg: msg} }

// Newf returns New(c, fmt.Sprintf(format, a...)).
func Newf(c codes.Code, format string, a ...any) *Status {
	return New(c, fmt.Sprintf(format, a...))
}

// Error returns an error representing c and msg. If c is OK, it returns nil.
func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

// Errorf returns Error(c, fmt.Sprintf(format, a...)).
func Errorf(c codes.Code, format string, a ...any) error {
	return Error(c, fmt.Sprintf(format, a...))
}

// Code returns the status code contained in s.
func (s *Status) Code() codes.Code {
	if s == nil {
		return codes.OK
	}
	return s.code
}

// Message returns the message contained in s.
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return s.msg
}

// Err returns an immutable error representing s; returns nil if s.Code() is OK.
func (s *Status) Err() error {
	if s.Code() == codes.OK {
		return nil
	}
	return &statusError{s: s}
}

type statusError struct{ s *Status }

func (e *statusError) Error() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s", e.s.code, e.s.msg)
}

// GRPCStatus returns the Status represented by e.
func (e *statusError) GRPCStatus() *Status { return e.s }

// FromError returns a Status representation of err and whether err carried
// one.
func FromError(err error) (*Status, bool) {
	if err == nil {
		return nil, true
	}
	var gs interface{ GRPCStatus() *Status }
	if errors.As(err, &gs) {
		return gs.GRPCStatus(), true
	}
	return New(codes.Unknown, err.Error()), false
}

// Convert is a convenience function which removes the need to handle the
// boolean return value from FromError.
func Convert(err error) *Status {
	s, _ := FromError(err)
	return s
}

// Code returns the Code of the error if it is a Status error or if it wraps
// a Status error. If that is not the case, it returns codes.OK if err is nil,
// or codes.Unknown otherwise.
func Code(err error) codes.Code {
	if err == nil {
		return codes.OK
	}
	var gs interface{ GRPCStatus() *Status }
	if errors.As(err, &gs) {
		return gs.GRPCStatus().Code()
	}
	return codes.Unknown
}
