// Package status is a stand-in for google.golang.org/grpc/status.
package status

import "google.golang.org/grpc/codes"

type Status struct{ code codes.Code }

func (s *Status) Code() codes.Code { return s.code }

func Code(err error) codes.Code { return codes.Unknown }

func FromError(err error) (*Status, bool) { return &Status{}, true }
