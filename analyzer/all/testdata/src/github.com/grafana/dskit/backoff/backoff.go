// Package backoff is a test stand-in for github.com/grafana/dskit/backoff
// (v0.0.0-20260703122047-de1ec7541c44): a jittered exponential back-off
// from MinBackoff to MaxBackoff, MaxRetries 0 is no limit, ctx ends it.
package backoff

import (
	"context"
	"fmt"
	"math/rand"
	"time"
)

type Config struct {
	MinBackoff time.Duration `yaml:"min_period"`
	MaxBackoff time.Duration `yaml:"max_period"`
	MaxRetries int           `yaml:"max_retries"`
}

type Backoff struct {
	cfg          Config
	ctx          context.Context
	numRetries   int
	nextDelayMin time.Duration
	nextDelayMax time.Duration
}

func New(ctx context.Context, cfg Config) *Backoff {
	b := &Backoff{cfg: cfg, ctx: ctx}
	b.Reset()
	return b
}

func (b *Backoff) Reset() {
	b.numRetries = 0
	b.nextDelayMin = b.cfg.MinBackoff
	b.nextDelayMax = doubled(b.cfg.MinBackoff, b.cfg.MaxBackoff)
}

// Ongoing reports whether another attempt may be made.
func (b *Backoff) Ongoing() bool {
	return b.ctx.Err() == nil && (b.cfg.MaxRetries == 0 || b.numRetries < b.cfg.MaxRetries)
}

func (b *Backoff) Err() error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if b.cfg.MaxRetries != 0 && b.numRetries >= b.cfg.MaxRetries {
		return fmt.Errorf("terminated after %d retries", b.numRetries)
	}
	return nil
}

func (b *Backoff) ErrCause() error {
	if b.ctx.Err() != nil {
		return context.Cause(b.ctx)
	}
	return b.Err()
}

func (b *Backoff) NumRetries() int { return b.numRetries }

// Wait waits the next delay, or until ctx is done.
func (b *Backoff) Wait() {
	d := b.NextDelay()
	if !b.Ongoing() {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-b.ctx.Done():
	case <-t.C:
	}
}

// NextDelay counts a retry and returns a random delay in the current window.
func (b *Backoff) NextDelay() time.Duration {
	b.numRetries++
	if b.nextDelayMin >= b.nextDelayMax {
		return b.nextDelayMin
	}
	d := b.nextDelayMin + time.Duration(rand.Int63n(int64(b.nextDelayMax-b.nextDelayMin)))
	if b.nextDelayMax < b.cfg.MaxBackoff {
		b.nextDelayMin = doubled(b.nextDelayMin, b.cfg.MaxBackoff)
		b.nextDelayMax = doubled(b.nextDelayMax, b.cfg.MaxBackoff)
	}
	return d
}

func doubled(v, max time.Duration) time.Duration {
	return min(2*v, max)
}
