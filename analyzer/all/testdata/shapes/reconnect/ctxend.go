package reconnect

import (
	"context"
	"log"
	"math/rand/v2"
	"net"
	"time"
)

// Dialer opens a connection to a dependency.
type Dialer interface {
	Dial(ctx context.Context) (net.Conn, error)
}

// Redial reconnects a constant 5s after a failure and asks the context
// only after the wait, through the same error variable.
func Redial(ctx context.Context, d Dialer, serve func(net.Conn) error) error {
	for { // want `unclassified-retry: `
		c, err := d.Dial(ctx)
		if err != nil {
			log.Printf("dial: %v", err)
			time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
			if err = ctx.Err(); err != nil {
				return err
			}
			continue
		}
		serve(c)
	}
}

// RedialAfterServe serves on success and waits only after a failed dial.
func RedialAfterServe(ctx context.Context, d Dialer, serve func(net.Conn) error) error {
	for { // want `unclassified-retry: `
		c, err := d.Dial(ctx)
		if err == nil {
			serve(c)
			continue
		}
		log.Printf("dial: %v", err)
		time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
		if err = ctx.Err(); err != nil {
			return err
		}
	}
}

// RedialJittered is the same loop done right: a jittered, capped wait
// that ends with the context; the ctx.Err test after it is a bound.
func RedialJittered(ctx context.Context, d Dialer, serve func(net.Conn) error, temporary func(error) bool) error {
	delay := 100 * time.Millisecond
	for {
		c, err := d.Dial(ctx)
		if err == nil {
			delay = 100 * time.Millisecond
			serve(c)
			continue
		}
		if !temporary(err) {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(delay/2 + rand.N(delay/2)):
		}
		delay = min(2*delay, time.Minute)
		if err = ctx.Err(); err != nil {
			return err
		}
	}
}

// ReadUntilDone reads until the context ends; the ctx.Err test is its only exit
// and nothing failed.
func ReadUntilDone(ctx context.Context, c net.Conn, buf []byte) error {
	var err error
	for {
		c.SetReadDeadline(time.Now().Add(time.Second))
		c.Read(buf)
		if err = ctx.Err(); err != nil {
			return err
		}
	}
}
