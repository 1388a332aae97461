// Package hystrix is a minimal stand-in for github.com/afex/hystrix-go/hystrix.
package hystrix

import (
	"context"
	"sync"
)

type runFunc func() error
type fallbackFunc func(error) error
type runFuncC func(context.Context) error
type fallbackFuncC func(context.Context, error) error

// A CircuitError is an error which models various failure states of execution,
// such as the circuit being open or a timeout.
type CircuitError struct {
	Message string
}

func (e CircuitError) Error() string { return "hystrix: " + e.Message }

var (
	// ErrMaxConcurrency occurs when too many of the same named command are executed at the same time.
	ErrMaxConcurrency = CircuitError{Message: "max concurrency"}
	// ErrCircuitOpen returns when an execution attempt "short circuits". This happens due to the circuit being measured as unhealthy.
	ErrCircuitOpen = CircuitError{Message: "circuit open"}
	// ErrTimeout occurs when the provided function takes too long to execute.
	ErrTimeout = CircuitError{Message: "timeout"}
)

// CommandConfig is used to tune circuit settings at runtime.
type CommandConfig struct {
	Timeout                int
	MaxConcurrentRequests  int
	RequestVolumeThreshold int
	SleepWindow            int
	ErrorPercentThreshold  int
}

var (
	mu      sync.Mutex
	configs = map[string]CommandConfig{}
	open    = map[string]bool{}
)

// ConfigureCommand applies settings for a circuit.
func ConfigureCommand(name string, config CommandConfig) {
	mu.Lock()
	defer mu.Unlock()
	configs[name] = config
}

// Do runs your function in a synchronous manner, blocking until either your
// function succeeds or an error is returned, including hystrix circuit errors.
func Do(name string, run runFunc, fallback fallbackFunc) error {
	return DoC(context.Background(), name, func(context.Context) error { return run() }, nil)
}

// DoC runs your function in a synchronous manner with a context.
func DoC(ctx context.Context, name string, run runFuncC, fallback fallbackFuncC) error {
	mu.Lock()
	isOpen := open[name]
	mu.Unlock()
	var err error
	if isOpen {
		err = ErrCircuitOpen
	} else {
		err = run(ctx)
	}
	if err != nil && fallback != nil {
		return fallback(ctx, err)
	}
	return err
}
