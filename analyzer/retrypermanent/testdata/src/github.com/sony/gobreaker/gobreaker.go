// Package gobreaker is a stand-in for github.com/sony/gobreaker.
package gobreaker

import "errors"

var ErrOpenState = errors.New("circuit breaker is open")

type CircuitBreaker struct{}

func (cb *CircuitBreaker) Execute(req func() (interface{}, error)) (interface{}, error) {
	return req()
}
