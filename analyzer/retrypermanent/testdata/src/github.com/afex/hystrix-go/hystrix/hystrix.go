// Package hystrix is a stand-in for github.com/afex/hystrix-go/hystrix.
package hystrix

import "errors"

var ErrCircuitOpen = errors.New("hystrix: circuit open")

func Do(name string, run func() error, fallback func(error) error) error { return run() }
