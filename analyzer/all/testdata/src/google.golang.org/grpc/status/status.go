// Package status is a test stand-in for google.golang.org/grpc/status
// (grpc v1.85.0): errors that carry a gRPC code.
package status

import (
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
)

// Status is a gRPC status: a code and a message.
type Status struct {
	code codes.Code
	msg  string
}

func New(c codes.Code, msg string) *Status { return &Status{code: c, msg: msg} }

func Newf(c codes.Code, format string, a ...any) *Status { return New(c, fmt.Sprintf(format, a...)) }

func (s *Status) Code() codes.Code {
	if s == nil {
		return codes.OK
	}
	return s.code
}

func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return s.msg
}

func (s *Status) Err() error {
	if s.Code() == codes.OK {
		return nil
	}
	return &statusError{s}
}

type statusError struct{ s *Status }

func (e *statusError) Error() string {
	return fmt.Sprintf("rpc error: code = %s desc = %s", e.s.code, e.s.msg)
}
func (e *statusError) GRPCStatus() *Status { return e.s }

func Error(c codes.Code, msg string) error { return New(c, msg).Err() }

func Errorf(c codes.Code, format string, a ...any) error { return Newf(c, format, a...).Err() }

// FromError returns the status of err, and whether err carries one.
func FromError(err error) (*Status, bool) {
	if err == nil {
		return nil, true
	}
	var se interface{ GRPCStatus() *Status }
	if errors.As(err, &se) {
		return se.GRPCStatus(), true
	}
	return New(codes.Unknown, err.Error()), false
}

func Convert(err error) *Status {
	s, _ := FromError(err)
	return s
}

// Code returns the code of err: OK for nil, Unknown for an error without one.
func Code(err error) codes.Code {
	s, _ := FromError(err)
	return s.Code()
}
