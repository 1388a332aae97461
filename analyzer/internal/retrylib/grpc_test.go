package retrylib

import (
	"reflect"
	"testing"
)

func TestReadRetryPolicy(t *testing.T) {
	cases := []struct {
		name, config string
		ok           bool
		want         retryPolicy
	}{
		{"sound", `{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":4,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}`,
			true, retryPolicy{attempts: 4, grows: true}},
		{"constant backoff", `{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":1,"retryableStatusCodes":[14]}}]}`,
			true, retryPolicy{attempts: 3}},
		{"permanent codes, by name and number", `{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND",3,"UNAVAILABLE"]}},
			{"retryPolicy":{"maxAttempts":2,"initialBackoff":"1s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND","UNAUTHENTICATED"]}}]}`,
			true, retryPolicy{attempts: 3, grows: true, permanent: []string{"gRPC NotFound", "gRPC InvalidArgument", "gRPC Unauthenticated"}}},
		{"no retry policy", `{"methodConfig":[{"name":[{}],"timeout":"1s"}]}`, false, retryPolicy{}},
		{"one attempt is invalid", `{"methodConfig":[{"retryPolicy":{"maxAttempts":1,"initialBackoff":"1s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["NOT_FOUND"]}}]}`, false, retryPolicy{}},
		{"duration without unit", `{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"100ms","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}`, false, retryPolicy{}},
		{"unknown code", `{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"2s","backoffMultiplier":2,"retryableStatusCodes":["unavailable"]}}]}`, false, retryPolicy{}},
		{"malformed", `{"methodConfig":[{"retryPolicy":`, false, retryPolicy{}},
	}
	for _, c := range cases {
		got, ok := readRetryPolicy(c.config)
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("%s: got %+v, %v; want %+v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestGRPCRetriers(t *testing.T) {
	got := retriersOf(t, `package unit

import "google.golang.org/grpc"

const policy = `+"`"+`{"methodConfig":[{"name":[{}],"retryPolicy":{"maxAttempts":10,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}`+"`"+`

func capped() { grpc.NewClient("dns:///x", grpc.WithDefaultServiceConfig(policy)) }

func raised() {
	grpc.NewClient("dns:///x", grpc.WithDefaultServiceConfig(policy), grpc.WithMaxCallAttempts(8))
}

func disabled() { grpc.Dial("x", grpc.WithDefaultServiceConfig(policy), grpc.WithDisableRetry()) }

func option() grpc.DialOption { return grpc.WithDefaultServiceConfig(policy) }

func optionDialled() { grpc.NewClient("dns:///x", option(), grpc.WithDefaultServiceConfig(policy)) }
`)
	// An option built for a dial elsewhere is read where it is built; one
	// given to a dial is read at the dial only.
	for fn, attempts := range map[string]int{"capped": 5, "raised": 8, "option": 5, "optionDialled": 5} {
		rs := got[fn]
		if len(rs) != 1 || rs[0].Attempts != attempts || !rs[0].Delay.Random || !rs[0].Delay.Capped || !rs[0].Context {
			t.Errorf("%s: got %+v, want one retrier of %d attempts, jittered and capped, ended by the RPC's context", fn, rs, attempts)
		}
	}
	for _, fn := range []string{"disabled"} {
		if len(got[fn]) != 0 {
			t.Errorf("%s: %d retriers, want none", fn, len(got[fn]))
		}
	}
}
