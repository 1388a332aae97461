// Package etcdkv keeps configuration in etcd through
// go.etcd.io/etcd/client/v3, whose client already retries a call that
// fails with Unavailable, up to 100 times: a loop around such a call is a
// second layer of retries.
package etcdkv

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Store holds configuration keys.
type Store struct {
	cli *clientv3.Client
}

var errMissing = errors.New("missing key")

// WaitReadable reads a key until the cluster answers, every second.
func (s *Store) WaitReadable(ctx context.Context, key string) {
	for { // want `nested-retry: .*etcdkv.go:27.*unbounded` `unbounded-retry: ` `unclassified-retry: `
		_, err := s.cli.Get(ctx, key, clientv3.WithKeysOnly())
		if err == nil {
			return
		}
		log.Printf("read %s failed, retrying in 1s: %v", key, err)
		time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Load reads a key once: the client's own retries are the only layer.
func (s *Store) Load(ctx context.Context, key string) ([]byte, error) {
	resp, err := s.cli.Get(ctx, key)
	if err != nil {
		return nil, err
	}
	if len(resp.Kvs) == 0 {
		return nil, errMissing
	}
	return resp.Kvs[0].Value, nil
}

// LoadAll reads each key once, one after the other: a loop over keys, no
// retry.
func (s *Store) LoadAll(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	for _, k := range keys {
		resp, err := s.cli.Get(ctx, k)
		if err != nil {
			return nil, err
		}
		for _, kv := range resp.Kvs {
			out[string(kv.Key)] = kv.Value
		}
	}
	return out, nil
}

// Swap updates a key with compare-and-swap, trying again when another
// writer got there first: the client retries the transport, this loop only
// the conflict, which the client never does; a failed call is returned.
// The two layers never retry the same failure.
func (s *Store) Swap(ctx context.Context, key string, update func([]byte) []byte) error {
	for attempt := 0; attempt < 5; attempt++ {
		resp, err := s.cli.Get(ctx, key)
		if err != nil {
			return err
		}
		var old []byte
		var rev int64
		if len(resp.Kvs) > 0 {
			old, rev = resp.Kvs[0].Value, resp.Kvs[0].ModRevision
		}
		txn, err := s.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(key), "=", rev)).
			Then(clientv3.OpPut(key, string(update(old)))).
			Commit()
		if err != nil {
			return err
		}
		if txn.Succeeded {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(50 * time.Millisecond)):
		}
	}
	return errors.New("too many conflicts")
}
