package forms

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"
)

// WaitForLocalServer polls the server this process just started until it
// answers: a readiness poll of this machine, not a retry.
func WaitForLocalServer(ctx context.Context, port int) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
			res, err := http.Get(fmt.Sprintf("http://localhost:%d/healthz", port))
			if err == nil && res.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
}

// DialLoopback waits for a sidecar on the loopback address.
func DialLoopback(ctx context.Context) (net.Conn, error) {
	for {
		conn, err := net.Dial("tcp", "127.0.0.1:15000")
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// DialUpstream retries a configured upstream every 100ms, whatever
// failed: a retry against a dependency.
func DialUpstream(ctx context.Context, addr string) (net.Conn, error) {
	for { // want `unclassified-retry: retry loop retries every error of net.Dial`
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond): // want `fixed-sleep: `
		}
	}
}
