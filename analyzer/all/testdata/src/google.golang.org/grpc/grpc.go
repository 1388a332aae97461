// Package grpc is a stand-in for google.golang.org/grpc v1.85.0: creating a
// client connection with dial options, a default service config among them.
package grpc

import (
	"context"
	"encoding/json"
	"errors"

	"google.golang.org/grpc/credentials"
)

// DialOption configures how we set up the connection.
type DialOption interface {
	apply(*dialOptions)
}

type dialOptions struct {
	serviceConfig   string
	disableRetry    bool
	maxCallAttempts int
	creds           credentials.TransportCredentials
	insecure        bool
}

type funcDialOption func(*dialOptions)

func (f funcDialOption) apply(o *dialOptions) { f(o) }

// WithDefaultServiceConfig returns a DialOption that configures the default
// service config, a JSON document, used when the resolver provides none.
func WithDefaultServiceConfig(s string) DialOption {
	return funcDialOption(func(o *dialOptions) { o.serviceConfig = s })
}

// WithDisableRetry returns a DialOption that disables retries, even if the
// service config enables them.
func WithDisableRetry() DialOption {
	return funcDialOption(func(o *dialOptions) { o.disableRetry = true })
}

// WithMaxCallAttempts returns a DialOption that configures the maximum number
// of attempts per call (including retries and hedging) using the channel.
// A value of 5 will be used if this dial option is not set or n < 2.
func WithMaxCallAttempts(n int) DialOption {
	return funcDialOption(func(o *dialOptions) {
		if n < 2 {
			n = 5
		}
		o.maxCallAttempts = n
	})
}

// WithTransportCredentials returns a DialOption which configures a
// connection level security credentials.
func WithTransportCredentials(creds credentials.TransportCredentials) DialOption {
	return funcDialOption(func(o *dialOptions) { o.creds = creds })
}

// WithInsecure returns a DialOption which disables transport security.
//
// Deprecated: use WithTransportCredentials and insecure.NewCredentials() instead.
func WithInsecure() DialOption {
	return funcDialOption(func(o *dialOptions) { o.insecure = true })
}

// WithBlock returns a DialOption which makes callers of Dial block until the
// underlying connection is up.
//
// Deprecated: this DialOption is not supported by NewClient.
func WithBlock() DialOption {
	return funcDialOption(func(*dialOptions) {})
}

// WithUserAgent returns a DialOption that specifies a user agent string for
// all the RPCs.
func WithUserAgent(s string) DialOption {
	return funcDialOption(func(*dialOptions) {})
}

// CallOption configures a Call before it starts or extracts information from
// a Call after it completes.
type CallOption interface {
	before() error
}

// ClientConn represents a virtual connection to a conceptual endpoint, to
// perform RPCs.
type ClientConn struct {
	target string
	opts   dialOptions
}

// NewClient creates a new gRPC "channel" for the target URI provided.
func NewClient(target string, opts ...DialOption) (*ClientConn, error) {
	cc := &ClientConn{target: target}
	for _, o := range opts {
		o.apply(&cc.opts)
	}
	if cc.opts.creds == nil && !cc.opts.insecure {
		return nil, errors.New("grpc: no transport security set")
	}
	if s := cc.opts.serviceConfig; s != "" && !json.Valid([]byte(s)) {
		return nil, errors.New("grpc: the provided default service config is invalid")
	}
	return cc, nil
}

// Dial calls DialContext(context.Background(), target, opts...).
//
// Deprecated: use NewClient instead.
func Dial(target string, opts ...DialOption) (*ClientConn, error) {
	return DialContext(context.Background(), target, opts...)
}

// DialContext calls NewClient and then exits idle mode.
//
// Deprecated: use NewClient instead.
func DialContext(ctx context.Context, target string, opts ...DialOption) (*ClientConn, error) {
	return NewClient(target, opts...)
}

// Invoke sends the RPC request on the wire and returns after response is
// received.
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return ctx.Err()
}

// Close tears down the ClientConn and all underlying connections.
func (cc *ClientConn) Close() error { return nil }

// Target returns the target string of the ClientConn.
func (cc *ClientConn) Target() string { return cc.target }
