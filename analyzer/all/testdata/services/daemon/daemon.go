// Package daemon holds the long-running background loops of the agent:
// heartbeats, metric flushes, lease renewal and registration.
package daemon

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"sync/atomic"
	"time"
)

// Registry is the control-plane registry the agent reports to.
type Registry interface {
	Register(nodeID string) error
	Heartbeat(ctx context.Context, nodeID string) error
	RenewLease(ctx context.Context, nodeID string, ttl time.Duration) error
}

// Agent is the node agent.
type Agent struct {
	NodeID   string
	Registry Registry
	Flush    func() error
	healthy  atomic.Bool
}

// Heartbeat reports liveness every 10s until ctx is cancelled. A missed
// beat is logged; the next tick tries again anyway.
func (a *Agent) Heartbeat(ctx context.Context) {
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.Registry.Heartbeat(ctx, a.NodeID); err != nil {
				log.Printf("heartbeat: %v", err)
				a.healthy.Store(false)
				continue
			}
			a.healthy.Store(true)
		}
	}
}

// FlushMetrics pushes buffered metrics every 15s for the life of the
// process.
func (a *Agent) FlushMetrics() {
	for {
		if err := a.Flush(); err != nil {
			log.Printf("metrics flush failed: %v", err)
		}
		time.Sleep(15 * time.Second)
	}
}

// KeepLease renews the node lease at a third of its TTL. On failure the
// next renewal is brought forward so the lease does not lapse.
func (a *Agent) KeepLease(ctx context.Context, ttl time.Duration) error {
	interval := ttl / 3
	timer := time.NewTimer(interval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		next := interval
		if err := a.Registry.RenewLease(ctx, a.NodeID, ttl); err != nil {
			log.Printf("lease renewal failed: %v", err)
			next = interval / 4
		}
		timer.Reset(next)
	}
}

// Register announces the node to the control plane at start-up. The agent
// is useless until this succeeds, so it insists.
func (a *Agent) Register() {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		err := a.Registry.Register(a.NodeID)
		if err == nil {
			break
		}
		log.Printf("register %s: %v; retrying", a.NodeID, err)
		time.Sleep(5 * time.Second) // want `fixed-sleep: `
	}
	log.Printf("registered %s", a.NodeID)
}

// Watchdog restarts the worker when it has not reported progress for
// the given timeout.
func Watchdog(ctx context.Context, progress <-chan struct{}, timeout time.Duration, restart func()) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-progress:
			if !t.Stop() {
				select {
				case <-t.C:
				default:
				}
			}
			t.Reset(timeout)
		case <-t.C:
			log.Printf("watchdog: no progress for %s, restarting worker", timeout)
			restart()
			t.Reset(timeout)
		}
	}
}

// Job is a periodic maintenance task.
type Job struct {
	Name  string
	Every time.Duration
	Run   func(ctx context.Context) error
}

// Schedule runs each job on its own interval, with a random initial offset
// so that a fleet restarted together does not run them in lock-step.
func Schedule(ctx context.Context, jobs []Job) {
	for _, j := range jobs {
		go func() {
			select {
			case <-ctx.Done():
				return
			case <-time.After(rand.N(j.Every)):
			}
			tick := time.NewTicker(j.Every)
			defer tick.Stop()
			for {
				if err := j.Run(ctx); err != nil {
					log.Printf("job %s: %v", j.Name, err)
				}
				select {
				case <-ctx.Done():
					return
				case <-tick.C:
				}
			}
		}()
	}
}

// ErrNotLeader is returned by the election backend to followers.
var ErrNotLeader = errors.New("daemon: not the leader")

// Campaign tries to become leader; followers keep watching until ctx ends.
// Each pass either wins, learns it is a follower, or hits an error; all
// three wait a full term before asking again.
func Campaign(ctx context.Context, tryAcquire func(context.Context) error, term time.Duration, onLead func(context.Context)) {
	t := time.NewTicker(term)
	defer t.Stop()
	for {
		err := tryAcquire(ctx)
		switch {
		case err == nil:
			onLead(ctx)
		case errors.Is(err, ErrNotLeader):
		default:
			log.Printf("campaign: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
