// Package rediscache keeps values in Redis through
// github.com/redis/go-redis/v9, whose client retries a failed command up
// to MaxRetries (3 by default) times by itself: a loop around a command
// is a second layer.
package rediscache

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache wraps a client built in New.
type Cache struct {
	rdb *redis.Client
}

// New keeps go-redis's retry defaults.
func New(addr string) *Cache {
	return &Cache{rdb: redis.NewClient(&redis.Options{Addr: addr})}
}

// Get reads a key once: the client's retries are the only layer.
func (c *Cache) Get(ctx context.Context, key string) (string, error) {
	v, err := c.rdb.Get(ctx, key).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	return v, err
}

// GetRetrying retries a read the client already retries:
// (3+1)×(3+1) attempts.
func (c *Cache) GetRetrying(ctx context.Context, key string) (string, error) {
	var err error
	for attempt := 0; attempt < 4; attempt++ { // want `nested-retry: .*rediscache.go:\d+.*\(3\+1\)×\(3\+1\) = 16 attempts` `unclassified-retry: `
		var v string
		v, err = c.rdb.Get(ctx, key).Result()
		if err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 50 * time.Millisecond)):
		}
	}
	return "", err
}

// Incr counts with a client that retries five times, in a loop that
// retries three times: (2+1)×(5+1).
func Incr(ctx context.Context, addr, key string) (int64, error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: 5})
	defer rdb.Close()
	var err error
	for attempt := 0; attempt < 3; attempt++ { // want `nested-retry: .*rediscache.go:\d+.*\(2\+1\)×\(5\+1\) = 18 attempts` `unclassified-retry: `
		var n int64
		if n, err = rdb.Incr(ctx, key).Result(); err == nil {
			return n, nil
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(rand.N(200 * time.Millisecond)):
		}
	}
	return 0, err
}

// Lockstep gives the back-off no room: every wait is MaxRetryBackoff.
func Lockstep(ctx context.Context, addr, key string) error {
	rdb := redis.NewClient(&redis.Options{
		Addr:            addr,
		MinRetryBackoff: 100 * time.Millisecond,
		MaxRetryBackoff: 100 * time.Millisecond, // want `fixed-sleep: rdb.Del\(ctx, key\).Err waits a constant 100ms between attempts; .*MaxRetryBackoff room above MinRetryBackoff`
	})
	defer rdb.Close()
	return rdb.Del(ctx, key).Err()
}

// Detached sends a command without the caller's context.
func Detached(ctx context.Context, addr, key string) error {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	return rdb.Set(context.Background(), key, "1", time.Minute).Err() // want `sleep-ignores-context: rdb.Set\(context.Background\(\), key, "1", time.Minute\).Err waits between attempts without ctx although it is in scope; .*pass the caller.s ctx`
}

// NoRetries disables the client's retries: the loop is the only layer.
func NoRetries(ctx context.Context, addr string) error {
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = rdb.Ping(ctx).Err(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond)):
		}
	}
	return err
}

// Warm writes each key once, one after the other: a loop over keys, no
// retry.
func (c *Cache) Warm(ctx context.Context, values map[string]string) error {
	for k, v := range values {
		if err := c.rdb.Set(ctx, k, v, time.Hour).Err(); err != nil {
			return err
		}
	}
	return nil
}
