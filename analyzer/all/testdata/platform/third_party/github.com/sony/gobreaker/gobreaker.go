// Package gobreaker is a minimal stand-in for github.com/sony/gobreaker.
package gobreaker

import (
	"errors"
	"sync"
	"time"
)

var (
	// ErrTooManyRequests is returned when the CB state is half open and the requests count is over the cb maxRequests
	ErrTooManyRequests = errors.New("too many requests")
	// ErrOpenState is returned when the CB state is open
	ErrOpenState = errors.New("circuit breaker is open")
)

// State is a type that represents a state of CircuitBreaker.
type State int

const (
	StateClosed State = iota
	StateHalfOpen
	StateOpen
)

// Counts holds the numbers of requests and their successes/failures.
type Counts struct {
	Requests             uint32
	TotalSuccesses       uint32
	TotalFailures        uint32
	ConsecutiveSuccesses uint32
	ConsecutiveFailures  uint32
}

// Settings configures CircuitBreaker.
type Settings struct {
	Name          string
	MaxRequests   uint32
	Interval      time.Duration
	Timeout       time.Duration
	ReadyToTrip   func(counts Counts) bool
	OnStateChange func(name string, from State, to State)
	IsSuccessful  func(err error) bool
}

// CircuitBreaker is a state machine to prevent sending requests that are likely to fail.
type CircuitBreaker struct {
	mu       sync.Mutex
	settings Settings
	state    State
	counts   Counts
	expiry   time.Time
}

// NewCircuitBreaker returns a new CircuitBreaker configured with the given Settings.
func NewCircuitBreaker(st Settings) *CircuitBreaker {
	if st.ReadyToTrip == nil {
		st.ReadyToTrip = func(c Counts) bool { return c.ConsecutiveFailures > 5 }
	}
	if st.Timeout <= 0 {
		st.Timeout = 60 * time.Second
	}
	return &CircuitBreaker{settings: st}
}

// Name returns the name of the CircuitBreaker.
func (cb *CircuitBreaker) Name() string { return cb.settings.Name }

// State returns the current state of the CircuitBreaker.
func (cb *CircuitBreaker) State() State {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	return cb.state
}

// Execute runs the given request if the CircuitBreaker accepts it.
func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	cb.mu.Lock()
	if cb.state == StateOpen {
		if time.Now().Before(cb.expiry) {
			cb.mu.Unlock()
			return nil, ErrOpenState
		}
		cb.state = StateHalfOpen
	}
	cb.mu.Unlock()

	res, err := req()

	cb.mu.Lock()
	defer cb.mu.Unlock()
	if err != nil {
		cb.counts.ConsecutiveFailures++
		cb.counts.ConsecutiveSuccesses = 0
		if cb.settings.ReadyToTrip(cb.counts) {
			cb.state = StateOpen
			cb.expiry = time.Now().Add(cb.settings.Timeout)
		}
		return nil, err
	}
	cb.counts.ConsecutiveSuccesses++
	cb.counts.ConsecutiveFailures = 0
	cb.state = StateClosed
	return res, nil
}
