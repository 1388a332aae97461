// Package clientv3 is a stand-in for go.etcd.io/etcd/client/v3 with the
// API retrylint's tests use. Every client it builds retries unary calls
// that fail with Unavailable, up to 100 times, 25ms apart with 10 %
// jitter, and watch streams without limit.
package clientv3

import (
	"context"
	"time"
)

// Config is a client's configuration.
type Config struct {
	Endpoints   []string
	DialTimeout time.Duration
}

// Client is an etcd client.
type Client struct {
	KV
	Watcher
	Lease
}

// New builds a client.
func New(cfg Config) (*Client, error) { return &Client{}, nil }

// Close closes the client.
func (c *Client) Close() error { return nil }

// OpOption configures an operation.
type OpOption func(*Op)

// Op is an operation.
type Op struct{}

// WithPrefix makes a key a prefix.
func WithPrefix() OpOption { return func(*Op) {} }

// WithKeysOnly leaves values out.
func WithKeysOnly() OpOption { return func(*Op) {} }

// KeyValue is a stored pair.
type KeyValue struct {
	Key, Value     []byte
	ModRevision    int64
	CreateRevision int64
}

// ResponseHeader heads every response.
type ResponseHeader struct{ Revision int64 }

// GetResponse is Get's answer.
type GetResponse struct {
	Header *ResponseHeader
	Kvs    []*KeyValue
	Count  int64
}

// PutResponse is Put's answer.
type PutResponse struct{ Header *ResponseHeader }

// DeleteResponse is Delete's answer.
type DeleteResponse struct{ Deleted int64 }

// TxnResponse is a transaction's answer.
type TxnResponse struct{ Succeeded bool }

// Cmp is a transaction's comparison.
type Cmp struct{}

// Compare builds a comparison.
func Compare(cmp Cmp, result string, v any) Cmp { return cmp }

// ModRevision compares a key's modification revision.
func ModRevision(key string) Cmp { return Cmp{} }

// OpPut is a put inside a transaction.
func OpPut(key, val string, opts ...OpOption) Op { return Op{} }

// KV reads and writes keys.
type KV interface {
	Put(ctx context.Context, key, val string, opts ...OpOption) (*PutResponse, error)
	Get(ctx context.Context, key string, opts ...OpOption) (*GetResponse, error)
	Delete(ctx context.Context, key string, opts ...OpOption) (*DeleteResponse, error)
	Txn(ctx context.Context) Txn
}

// Txn is a transaction.
type Txn interface {
	If(cs ...Cmp) Txn
	Then(ops ...Op) Txn
	Else(ops ...Op) Txn
	Commit() (*TxnResponse, error)
}

// Event is a watch event.
type Event struct{ Kv *KeyValue }

// WatchResponse is one answer of a watch.
type WatchResponse struct {
	Events   []*Event
	Canceled bool
}

// Err is the watch's error, if it ended with one.
func (wr *WatchResponse) Err() error { return nil }

// WatchChan delivers a watch's answers.
type WatchChan <-chan WatchResponse

// Watcher watches keys.
type Watcher interface {
	Watch(ctx context.Context, key string, opts ...OpOption) WatchChan
}

// LeaseID names a lease.
type LeaseID int64

// LeaseGrantResponse is Grant's answer.
type LeaseGrantResponse struct{ ID LeaseID }

// Lease grants leases.
type Lease interface {
	Grant(ctx context.Context, ttl int64) (*LeaseGrantResponse, error)
}
