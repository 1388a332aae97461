// Package backoff holds HTTP and database clients that back off between
// attempts, some without jitter and some without a cap.
package backoff

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"time"
)

var ErrUnavailable = errors.New("unavailable")

type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
	Sleep(d time.Duration)
}

type API struct {
	hc    *http.Client
	clock Clock
	base  time.Duration
	max   time.Duration
}

func (a *API) fetch(ctx context.Context) error { return nil }

// Doubling with no jitter and no cap of its own: six attempts from 100 ms
// end at 3.2 s, and the attempt limit is its cap.
func (a *API) Doubling(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 6; attempt++ {
		if err := a.fetch(ctx); err == nil || !errors.Is(err, ErrUnavailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay *= 2
	}
	return ErrUnavailable
}

// base << attempt, clamped but not jittered.
func (a *API) Shifted(ctx context.Context) error {
	for attempt := 0; attempt < 8; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		wait := min(a.base<<attempt, a.max)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return ErrUnavailable
}

// Linear growth through a helper that computes the delay, over enough
// attempts (400) that the last waits run to 100 s: four attempts would end
// at 1 s, a schedule the attempt limit caps.
func linear(attempt int) time.Duration {
	return time.Duration(attempt+1) * 250 * time.Millisecond
}

func (a *API) Linear(ctx context.Context) error {
	var err error
	for i := 0; i < 400; i++ {
		if err = a.fetch(ctx); err == nil {
			return nil
		}
		var ne net.Error
		if errors.As(err, &ne) && !ne.Timeout() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-a.clock.After(linear(i)): // want `no-cap: retry wait \(linear\(i\)\) grows`
		}
	}
	return err
}

// math.Pow backoff, capped with an if, through an injected clock.
func (a *API) Pow(ctx context.Context) error {
	for n := 0; n < 5; n++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		d := time.Duration(math.Pow(2, float64(n))) * time.Second
		if d > a.max {
			d = a.max
		}
		a.clock.Sleep(d)
	}
	return ErrUnavailable
}

// Reconnect loop that grows the wait in a field of a same-package policy.
type policy struct {
	cur, limit time.Duration
}

func (p *policy) next() time.Duration {
	d := p.cur
	p.cur *= 2
	if p.cur > p.limit {
		p.cur = p.limit
	}
	return d
}

func Connect(ctx context.Context, dsn string) (*sql.DB, error) {
	p := &policy{cur: time.Second, limit: 30 * time.Second}
	for attempt := 0; attempt < 10; attempt++ {
		db, err := sql.Open("postgres", dsn)
		if err == nil {
			if err = db.PingContext(ctx); err == nil {
				return db, nil
			}
		}
		if errors.Is(err, context.Canceled) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(p.next()):
		}
	}
	return nil, ErrUnavailable
}

// A schedule table indexed by the attempt.
var schedule = []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second}

func (a *API) Scheduled(ctx context.Context) error {
	for i := range len(schedule) {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(schedule[i]):
		}
	}
	return ErrUnavailable
}

// --- must not be flagged ---

// Full jitter, capped: sleep = random(0, min(cap, base * 2^attempt)).
func (a *API) FullJitter(ctx context.Context) error {
	for attempt := 0; attempt < 6; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		d := rand.N(min(a.max, a.base<<attempt))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return ErrUnavailable
}

// Equal jitter: half fixed, half random.
func (a *API) EqualJitter(ctx context.Context) error {
	for attempt := 0; attempt < 6; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		half := min(a.max, a.base<<attempt) / 2
		d := half + rand.N(half)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return ErrUnavailable
}

// Decorrelated jitter: sleep = min(cap, random(base, sleep*3)).
func (a *API) Decorrelated(ctx context.Context) error {
	sleep := a.base
	for attempt := 0; attempt < 6; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		sleep = min(a.max, a.base+rand.N(sleep*3-a.base))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(sleep):
		}
	}
	return ErrUnavailable
}

// The jitter sits in a helper of the same package.
func jitter(d time.Duration) time.Duration {
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func (a *API) HelperJitter(ctx context.Context) error {
	d := a.base
	for attempt := 0; attempt < 6; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(d)):
		}
		d = min(2*d, a.max)
	}
	return ErrUnavailable
}

// The whole computation is a helper: backoff(attempt) with jitter and cap.
func backoff(attempt int, base, ceiling time.Duration) time.Duration {
	d := base * time.Duration(1<<attempt)
	if d > ceiling || d <= 0 {
		d = ceiling
	}
	return rand.N(d)
}

func (a *API) HelperBackoff(ctx context.Context) error {
	for attempt := 0; attempt < 6; attempt++ {
		err := a.fetch(ctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		a.clock.Sleep(backoff(attempt, a.base, a.max))
	}
	return ErrUnavailable
}

// Honouring Retry-After: the delay comes from the server.
func (a *API) RetryAfter(ctx context.Context, req *http.Request) (*http.Response, error) {
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := a.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		wait, _ := time.ParseDuration(resp.Header.Get("Retry-After") + "s")
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	return nil, ErrUnavailable
}

// A growing poll interval while waiting for a condition is not a retry.
func WaitFor(ctx context.Context, ready func() bool) {
	d := 10 * time.Millisecond
	for !ready() {
		time.Sleep(d)
		d *= 2
	}
}

// Growth after success (a batch that slows down) is not a retry wait.
func (a *API) SlowDown(ctx context.Context, items []string) error {
	d := time.Millisecond
	for range items {
		if err := a.fetch(ctx); err != nil {
			return err
		}
		time.Sleep(d)
		d *= 2
	}
	return nil
}

// A wait declared afresh in each attempt does not grow: base plus jitter.
func (a *API) FreshWait(ctx context.Context) error {
	for attempt := 0; attempt < 4; attempt++ {
		err := a.fetch(ctx)
		if err == nil || !errors.Is(err, ErrUnavailable) {
			return err
		}
		wait := a.base
		wait += rand.N(wait)
		time.Sleep(wait)
	}
	return ErrUnavailable
}

// A recursive retry passes its next delay on, capped.
func (a *API) Recursive(ctx context.Context, backoff time.Duration, left int) error {
	err := a.fetch(ctx)
	if err == nil || left == 0 || !errors.Is(err, ErrUnavailable) {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(jitter(backoff)):
	}
	return a.Recursive(ctx, min(backoff*2, a.max), left-1)
}

// The same without the cap grows without bound.
func (a *API) RecursiveUncapped(ctx context.Context, backoff time.Duration, left int) error {
	err := a.fetch(ctx)
	if err == nil || left == 0 || !errors.Is(err, ErrUnavailable) {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(jitter(backoff)): // want `no-cap: retry wait \(jitter\(backoff\)\) grows`
	}
	return a.RecursiveUncapped(ctx, backoff*2, left-1)
}

// The growth stops at a deadline that counts the next wait in.
func (a *API) UntilDeadline(ctx context.Context, limit time.Duration) error {
	var start time.Time
	next := time.Millisecond
	for {
		err := a.fetch(ctx)
		if !errors.Is(err, ErrUnavailable) {
			return err
		}
		if start.IsZero() {
			start = time.Now()
		} else if d := time.Since(start) + next; d >= limit {
			return err
		}
		time.Sleep(next)
		next += rand.N(next)
	}
}

// DoublingLong doubles over twelve attempts from 100 ms: the last wait is
// over three minutes.
func (a *API) DoublingLong(ctx context.Context) error {
	delay := 100 * time.Millisecond
	for attempt := 0; attempt < 12; attempt++ {
		if err := a.fetch(ctx); err == nil || !errors.Is(err, ErrUnavailable) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-cap: retry wait \(delay\) grows with the attempt without an upper bound`
		}
		delay *= 2
	}
	return ErrUnavailable
}

// LinearShort is the same helper under four attempts: the last wait is
// 750 ms, and the limit caps it.
func (a *API) LinearShort(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = a.fetch(ctx); err == nil {
			return nil
		}
		var ne net.Error
		if errors.As(err, &ne) && !ne.Timeout() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-a.clock.After(linear(i)):
		}
	}
	return err
}
