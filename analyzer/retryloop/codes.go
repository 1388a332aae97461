package retryloop

import (
	"fmt"
	"sort"
	"strings"
)

// codeSet is a set of HTTP status codes (0–599) a path may have; narrowed
// reports whether a check on the path restricted it.
type codeSet struct {
	narrowed bool
	bits     [10]uint64 // 640 bits, codes 0..599 used
}

func allCodes() codeSet {
	var s codeSet
	for c := 100; c < 600; c++ {
		s.bits[c/64] |= 1 << (c % 64)
	}
	return s
}

func (s codeSet) has(c int) bool { return c >= 0 && c < 600 && s.bits[c/64]&(1<<(c%64)) != 0 }

// restrict keeps only codes for which keep is true.
func (s codeSet) restrict(keep func(int) bool) codeSet {
	out := s
	out.narrowed = true
	for c := 0; c < 600; c++ {
		if s.has(c) && !keep(c) {
			out.bits[c/64] &^= 1 << (c % 64)
		}
	}
	return out
}

func (s codeSet) empty() bool { return s.bits == [10]uint64{} }

func (s codeSet) hasSuccess() bool {
	for c := 200; c < 300; c++ {
		if s.has(c) {
			return true
		}
	}
	return false
}

// permanentHTTP are statuses a retry cannot fix.
var permanentHTTP = []int{400, 401, 403, 404, 405, 410, 422}

func (s codeSet) permanent() []int {
	var out []int
	for _, c := range permanentHTTP {
		if s.has(c) {
			out = append(out, c)
		}
	}
	return out
}

// grpcSet is a set of gRPC codes (0–16).
type grpcSet struct {
	narrowed bool
	bits     uint32
}

func allGRPC() grpcSet { return grpcSet{bits: 1<<17 - 1} }

func (s grpcSet) has(c int) bool { return c >= 0 && c < 32 && s.bits&(1<<c) != 0 }

func (s grpcSet) restrict(keep func(int) bool) grpcSet {
	out := s
	out.narrowed = true
	for c := 0; c < 17; c++ {
		if s.has(c) && !keep(c) {
			out.bits &^= 1 << c
		}
	}
	return out
}

var grpcNames = []string{"OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded",
	"NotFound", "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
	"Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"}

// permanentGRPC are gRPC codes a retry cannot fix.
var permanentGRPC = []int{3, 5, 7, 16}

func (s grpcSet) permanent() []string {
	var out []string
	for _, c := range permanentGRPC {
		if s.has(c) {
			out = append(out, grpcNames[c])
		}
	}
	return out
}

func joinInts(cs []int) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprint(c)
	}
	return strings.Join(parts, ", ")
}

// addUnique appends s to list unless present, keeping it sorted.
func addUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	list = append(list, s)
	sort.Strings(list)
	return list
}
