// Package daemon holds the long-running background loops of the agent.
package daemon

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

var ErrBusy = errors.New("daemon: resource busy")

type Sender interface {
	Heartbeat(ctx context.Context) error
	HeartbeatNoCtx() error
	Flush(ctx context.Context, points []float64) error
}

// RunHeartbeat sends a heartbeat every interval until ctx is cancelled.
func RunHeartbeat(ctx context.Context, s Sender, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := s.Heartbeat(ctx); err != nil {
				log.Printf("heartbeat failed: %v", err)
			}
		}
	}
}

// LegacyHeartbeat is the goroutine started by the v1 agent.
func LegacyHeartbeat(s Sender, interval time.Duration) {
	for {
		if err := s.HeartbeatNoCtx(); err != nil {
			log.Printf("heartbeat: %v", err)
		}
		time.Sleep(interval)
	}
}

// SyncAll pushes every record, spacing calls to respect the partner's rate limit.
func SyncAll(records []string, push func(string) error, gap time.Duration) (errs []error) {
	for _, r := range records {
		if err := push(r); err != nil {
			errs = append(errs, err)
			continue
		}
		time.Sleep(gap)
	}
	return errs
}

// MetricFlusher batches points and flushes them periodically.
type MetricFlusher struct {
	Sender Sender
	Every  time.Duration
	In     <-chan float64
}

// Run flushes until ctx is done, with a final flush on exit.
func (m *MetricFlusher) Run(ctx context.Context) {
	t := time.NewTicker(m.Every)
	defer t.Stop()
	var buf []float64
	for {
		select {
		case p := <-m.In:
			buf = append(buf, p)
		case <-t.C:
			if len(buf) == 0 {
				continue
			}
			if err := m.Sender.Flush(ctx, buf); err != nil {
				log.Printf("flush %d points: %v", len(buf), err)
				continue
			}
			buf = buf[:0]
		case <-ctx.Done():
			_ = m.Sender.Flush(context.Background(), buf)
			return
		}
	}
}

// EveryMinute runs job at the top of every minute.
func EveryMinute(job func() error) {
	for {
		now := time.Now()
		time.Sleep(now.Truncate(time.Minute).Add(time.Minute).Sub(now))
		if err := job(); err != nil {
			log.Printf("job: %v", err)
		}
	}
}

// Supervise restarts the child process when it crashes, giving up after a few
// crashes in a row.
func Supervise(ctx context.Context, run func(context.Context) error) error {
	wait := time.Second
	var err error
	for restarts := 0; restarts < 5; restarts++ {
		err = run(ctx)
		if err == nil || errors.Is(err, context.Canceled) {
			return err
		}
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) && ee.ExitCode() == 2 {
			return err // usage error: restarting will not help
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait + rand.N(wait)):
		}
		wait = min(wait*2, time.Minute)
	}
	return err
}

// KeepRunning restarts worker whenever it returns an error.
func KeepRunning(worker func() error) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		err := worker()
		if err == nil {
			return
		}
		log.Printf("worker exited: %v; restarting", err)
		time.Sleep(5 * time.Second) // want `fixed-sleep: `
	}
}

// Register announces the agent to service discovery at start-up.
func Register(ctx context.Context, register func(context.Context) error) error {
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = register(ctx); err == nil {
			return nil
		}
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return err
		}
		time.Sleep(min(rand.N(time.Duration(1<<attempt)*100*time.Millisecond), 10*time.Second)) // want `sleep-ignores-context: `
	}
	return err
}

// TimerHeartbeat uses a single timer, re-armed after each beat.
func TimerHeartbeat(ctx context.Context, s Sender, interval time.Duration) {
	t := time.NewTimer(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := s.Heartbeat(ctx); err != nil {
			log.Printf("heartbeat: %v", err)
		}
		t.Reset(interval)
	}
}

// AcquireLock tries to take a distributed lock, backing off while it is busy.
func AcquireLock(ctx context.Context, try func(context.Context) error) error {
	backoff := 50 * time.Millisecond
	t := time.NewTimer(0)
	defer t.Stop()
	for attempt := 0; attempt < 12; attempt++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		err := try(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			return err
		}
		t.Reset(backoff + rand.N(backoff))
		backoff = min(backoff*2, 3*time.Second)
	}
	return ErrBusy
}

// ClaimSlot claims a worker slot, re-arming a timer between attempts.
func ClaimSlot(ctx context.Context, claim func(context.Context) error, retryInterval time.Duration) error {
	t := time.NewTimer(retryInterval)
	defer t.Stop()
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = claim(ctx); err == nil {
			return nil
		}
		if !errors.Is(err, ErrBusy) {
			return err
		}
		t.Reset(retryInterval) // its callers choose retryInterval: fixed-sleep where one gives a constant
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}
