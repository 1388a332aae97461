// Package configsvc loads runtime configuration from the config service.
// Some of the older entry points retry by calling themselves.
package configsvc

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// Config is the decoded runtime configuration.
type Config struct {
	Version int
	Values  map[string]string
}

// Source is the config service client.
type Source interface {
	Dial() (net.Conn, error)
	Fetch(ctx context.Context, app string) (*Config, error)
}

// ErrUnknownApp is returned for an app that has no configuration.
var ErrUnknownApp = errors.New("configsvc: unknown app")

// ErrOverloaded is returned when the config service sheds load.
var ErrOverloaded = errors.New("configsvc: overloaded")

type Loader struct {
	src  Source
	conn net.Conn
}

// connect opens the watch connection; it calls itself until it works.
func (l *Loader) connect() error {
	c, err := l.src.Dial()
	if err != nil {
		log.Printf("config service dial failed: %v", err)
		time.Sleep(3 * time.Second) // want `fixed-sleep: `
		return l.connect()          // want `unbounded-retry: ` `unclassified-retry: `
	}
	l.conn = c
	return nil
}

func retryable(err error) bool {
	if errors.Is(err, ErrOverloaded) {
		return true
	}
	var op *net.OpError
	return errors.As(err, &op)
}

// Load fetches the app's configuration, retrying transient failures a few
// times with jittered, capped backoff.
func (l *Loader) Load(ctx context.Context, app string) (*Config, error) {
	return l.load(ctx, app, 0)
}

func (l *Loader) load(ctx context.Context, app string, attempt int) (*Config, error) {
	cfg, err := l.src.Fetch(ctx, app)
	if err == nil {
		return cfg, nil
	}
	if !retryable(err) || attempt >= 4 {
		return nil, fmt.Errorf("load %s (attempt %d): %w", app, attempt+1, err)
	}
	ceiling := min(time.Duration(100<<attempt)*time.Millisecond, 2*time.Second)
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(rand.N(ceiling)):
	}
	return l.load(ctx, app, attempt+1)
}

// reload is used by the SIGHUP handler: it backs off by doubling.
func (l *Loader) reload(ctx context.Context, app string, attempt int) (*Config, error) {
	cfg, err := l.src.Fetch(ctx, app)
	if err == nil {
		return cfg, nil
	}
	if !errors.Is(err, ErrOverloaded) || attempt == 10 {
		return nil, err
	}
	wait := time.Duration(1<<attempt) * 100 * time.Millisecond
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-time.After(wait): // want `no-jitter: ` `no-cap: `
	}
	return l.reload(ctx, app, attempt+1)
}
