package forms

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

type Clock interface {
	Sleep(d time.Duration)
	After(d time.Duration) <-chan time.Time
}

func op() error                    { return nil }
func get() (*http.Response, error) { return nil, nil }

var ErrBusy = errors.New("busy")

func Counter() error {
	var err error
	for i := 0; i < 3; i++ { // want `for-counter op=op bound=attempts classified=false waits=\[time.Sleep\(const\)\] ctx=- permanent=\[\]`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func Cond(ctx context.Context) error {
	n := 0
	for n < 3 { // want `for-cond op=op bound=attempts classified=true waits=\[time.After\(grows\+random\+capped\)\] ctx=ctx`
		err := op()
		if err == nil || !errors.Is(err, ErrBusy) {
			return err
		}
		n++
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(time.Duration(n) * time.Second)):
		}
	}
	return ErrBusy
}

func ErrCond(c Clock) {
	for err := op(); err != nil; err = op() { // want `for-err op=op bound=none classified=false waits=\[clock\(const\)\]`
		c.Sleep(time.Second)
	}
}

func Infinite(c Clock) error {
	d := time.Second
	for { // want `for-infinite op=get bound=none classified=true waits=\[clock\(grows\+capped\)\]`
		resp, err := get()
		if err == nil && resp.StatusCode < 500 {
			return nil
		}
		<-c.After(d)
		d = min(2*d, time.Minute)
	}
}

func RangeInt() {
	t := time.NewTimer(0)
	for attempt := range 4 { // want `for-range op=op bound=attempts classified=false waits=\[timer\(grows\+capped\)\]`
		if op() == nil {
			return
		}
		t.Reset(time.Duration(attempt) * time.Second)
		<-t.C
	}
}

func Goto() error {
	tries := 0
again: // want `goto op=op bound=attempts classified=false waits=\[time.Sleep\(const\)\]`
	if err := op(); err != nil {
		if tries++; tries < 3 {
			time.Sleep(time.Second)
			goto again
		}
		return err
	}
	return nil
}

func Recursive(ctx context.Context, attempt int) error {
	err := op()
	if err != nil && attempt < 5 {
		time.Sleep(time.Duration(attempt) * time.Second)
		return Recursive(ctx, attempt+1) // want `recursion op=op bound=attempts classified=false waits=\[time.Sleep\(grows\)\] ctx=ctx`
	}
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func Helper(ctx context.Context) error {
	for i := 0; ; i++ { // want `for-counter op=op bound=context classified=false waits=\[helper\(grows\+capped\)\]`
		if err := op(); err == nil {
			return nil
		}
		if err := sleepCtx(ctx, min(time.Second<<i, time.Minute)); err != nil {
			return err
		}
	}
}

func Permanent() (*http.Response, error) {
	for i := 0; i < 3; i++ { // want `for-counter op=get bound=attempts classified=true waits=\[\] ctx=- permanent=\[HTTP 401\]`
		resp, err := get()
		if err != nil {
			return nil, err
		}
		if resp.StatusCode == 401 || resp.StatusCode == 503 {
			continue
		}
		return resp, nil
	}
	return nil, errors.New("gave up")
}

// Reconnect: the success path goes round too, the failure path waits first.
func Reconnect() {
	for { // want `for-infinite op=op bound=none classified=false waits=\[time.Sleep\(const\)\] ctx=- permanent=\[\] reconnect`
		if err := op(); err != nil {
			time.Sleep(time.Second)
			continue
		}
		println("processed one more")
	}
}

// Not retry loops: no error, failure leaves, both paths wait alike.
func NotRetries(ready func() bool, items []string) {
	for !ready() {
		time.Sleep(time.Second)
	}
	for range items {
		if err := op(); err != nil {
			return
		}
		time.Sleep(time.Second)
	}
	for {
		if err := op(); err != nil {
			println("failed, again on the next tick")
		}
		time.Sleep(time.Second)
	}
}
