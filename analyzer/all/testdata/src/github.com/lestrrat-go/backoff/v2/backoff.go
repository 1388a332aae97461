// Package backoff is a test stand-in for github.com/lestrrat-go/backoff/v2
// (v2.0.8): a Policy's Start(ctx) gives a Controller whose Next channel
// fires once at once and then after every interval, up to WithMaxRetries
// (10 by default, 0 forever) or until ctx ends. Constant: 1 minute by
// default; Exponential: 500ms to 1 minute, ×1.5; no jitter unless
// WithJitterFactor(0 < f < 1).
package backoff

import (
	"context"
	"time"

	"github.com/lestrrat-go/option"
)

type Option = option.Interface

type Controller interface {
	Done() <-chan struct{}
	Next() <-chan struct{}
}

type Policy interface {
	Start(context.Context) Controller
}

type Random interface {
	Float64() float64
}

type identInterval struct{}
type identJitterFactor struct{}
type identMaxInterval struct{}
type identMaxRetries struct{}
type identMinInterval struct{}
type identMultiplier struct{}
type identRNG struct{}

type ControllerOption interface {
	ConstantOption
	ExponentialOption
	CommonOption
	controllerOption()
}

type controllerOption struct{ Option }

func (*controllerOption) exponentialOption() {}
func (*controllerOption) controllerOption()  {}
func (*controllerOption) constantOption()    {}

type ConstantOption interface {
	Option
	constantOption()
}

type constantOption struct{ Option }

func (*constantOption) constantOption() {}

type ExponentialOption interface {
	Option
	exponentialOption()
}

type exponentialOption struct{ Option }

func (*exponentialOption) exponentialOption() {}

type CommonOption interface {
	ExponentialOption
	ConstantOption
}

type commonOption struct{ Option }

func (*commonOption) constantOption()    {}
func (*commonOption) exponentialOption() {}

func WithMaxRetries(v int) ControllerOption {
	return &controllerOption{option.New(identMaxRetries{}, v)}
}

func WithInterval(v time.Duration) ConstantOption {
	return &constantOption{option.New(identInterval{}, v)}
}

func WithMaxInterval(v time.Duration) ExponentialOption {
	return &exponentialOption{option.New(identMaxInterval{}, v)}
}

func WithMinInterval(v time.Duration) ExponentialOption {
	return &exponentialOption{option.New(identMinInterval{}, v)}
}

func WithMultiplier(v float64) ExponentialOption {
	return &exponentialOption{option.New(identMultiplier{}, v)}
}

func WithJitterFactor(v float64) CommonOption {
	return &commonOption{option.New(identJitterFactor{}, v)}
}

func WithRNG(v Random) CommonOption {
	return &commonOption{option.New(identRNG{}, v)}
}

type controller struct {
	ctx  context.Context
	next chan struct{}
}

func (c *controller) Done() <-chan struct{} { return c.ctx.Done() }
func (c *controller) Next() <-chan struct{} { return c.next }

type ConstantPolicy struct{ options []Option }

func NewConstantPolicy(options ...Option) *ConstantPolicy { return &ConstantPolicy{options} }

func (p *ConstantPolicy) Start(ctx context.Context) Controller {
	return &controller{ctx: ctx, next: make(chan struct{}, 1)}
}

type ExponentialPolicy struct{ options []ExponentialOption }

func NewExponentialPolicy(options ...ExponentialOption) *ExponentialPolicy {
	return &ExponentialPolicy{options}
}

func (p *ExponentialPolicy) Start(ctx context.Context) Controller {
	return &controller{ctx: ctx, next: make(chan struct{}, 1)}
}

type NullPolicy struct{}

func NewNull() *NullPolicy { return &NullPolicy{} }

func (p *NullPolicy) Start(ctx context.Context) Controller {
	return &controller{ctx: ctx, next: make(chan struct{}, 1)}
}

func Null() Policy { return NewNull() }

func Constant(options ...Option) Policy { return NewConstantPolicy(options...) }

func Exponential(options ...ExponentialOption) Policy { return NewExponentialPolicy(options...) }

func Continue(c Controller) bool {
	select {
	case <-c.Done():
		return false
	case _, ok := <-c.Next():
		return ok
	}
}
