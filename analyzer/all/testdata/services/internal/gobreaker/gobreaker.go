// Package gobreaker is a small in-tree circuit breaker with the same API
// shape as github.com/sony/gobreaker (v1), so services can depend on it
// without pulling the module in.
package gobreaker

import (
	"errors"
	"sync"
	"time"
)

var (
	// ErrOpenState is returned when the breaker is open.
	ErrOpenState = errors.New("circuit breaker is open")
	// ErrTooManyRequests is returned when the breaker is half-open and the
	// probe quota is used up.
	ErrTooManyRequests = errors.New("too many requests")
)

// State is the breaker state.
type State int

const (
	StateClosed State = iota
	StateHalfOpen
	StateOpen
)

// Counts holds the request counts of the current generation.
type Counts struct {
	Requests             uint32
	TotalSuccesses       uint32
	TotalFailures        uint32
	ConsecutiveSuccesses uint32
	ConsecutiveFailures  uint32
}

// Settings configures a CircuitBreaker.
type Settings struct {
	Name        string
	MaxRequests uint32
	Interval    time.Duration
	Timeout     time.Duration
	ReadyToTrip func(counts Counts) bool
}

// CircuitBreaker is a state machine that fails fast while the protected
// dependency is unhealthy.
type CircuitBreaker struct {
	mu       sync.Mutex
	settings Settings
	state    State
	counts   Counts
	expiry   time.Time
}

// NewCircuitBreaker returns a breaker configured by st.
func NewCircuitBreaker(st Settings) *CircuitBreaker {
	if st.MaxRequests == 0 {
		st.MaxRequests = 1
	}
	if st.Timeout == 0 {
		st.Timeout = 60 * time.Second
	}
	if st.ReadyToTrip == nil {
		st.ReadyToTrip = func(c Counts) bool { return c.ConsecutiveFailures > 5 }
	}
	return &CircuitBreaker{settings: st}
}

// Name returns the breaker's name.
func (cb *CircuitBreaker) Name() string { return cb.settings.Name }

// State returns the current state.
func (cb *CircuitBreaker) State() State {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.refresh(time.Now())
	return cb.state
}

// Execute runs req if the breaker accepts it; it returns ErrOpenState or
// ErrTooManyRequests without calling req otherwise.
func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	if err := cb.before(); err != nil {
		return nil, err
	}
	res, err := req()
	cb.after(err == nil)
	return res, err
}

func (cb *CircuitBreaker) refresh(now time.Time) {
	if cb.state == StateOpen && !cb.expiry.After(now) {
		cb.state = StateHalfOpen
		cb.counts = Counts{}
	}
}

func (cb *CircuitBreaker) before() error {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.refresh(time.Now())
	switch {
	case cb.state == StateOpen:
		return ErrOpenState
	case cb.state == StateHalfOpen && cb.counts.Requests >= cb.settings.MaxRequests:
		return ErrTooManyRequests
	}
	cb.counts.Requests++
	return nil
}

func (cb *CircuitBreaker) after(ok bool) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	if ok {
		cb.counts.TotalSuccesses++
		cb.counts.ConsecutiveSuccesses++
		cb.counts.ConsecutiveFailures = 0
		if cb.state == StateHalfOpen && cb.counts.ConsecutiveSuccesses >= cb.settings.MaxRequests {
			cb.state = StateClosed
			cb.counts = Counts{}
		}
		return
	}
	cb.counts.TotalFailures++
	cb.counts.ConsecutiveFailures++
	cb.counts.ConsecutiveSuccesses = 0
	if cb.state == StateHalfOpen || cb.settings.ReadyToTrip(cb.counts) {
		cb.state = StateOpen
		cb.expiry = time.Now().Add(cb.settings.Timeout)
		cb.counts = Counts{}
	}
}
