package forms

import (
	"bytes"
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
			res, err := http.Get(fmt.Sprintf("http://localhost:%d", port))
			if err == nil && res.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
}

// WaitHealthy polls the local health endpoint.
func WaitHealthy(ctx context.Context) error {
	for {
		res, err := http.Get("http://127.0.0.1:8080/healthz")
		if err == nil && res.StatusCode == http.StatusOK {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// InvokeSidecar calls another service through the sidecar on this
// machine: the sidecar forwards the call, so going round on it is a
// retry against that service.
func InvokeSidecar(ctx context.Context, body []byte) error {
	for { // want `unclassified-retry: retry loop retries every error of http.Post`
		res, err := http.Post("http://localhost:3500/v1.0/invoke/orders/method/charge", "application/json", bytes.NewReader(body))
		if err == nil {
			res.Body.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond): // want `fixed-sleep: `
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
