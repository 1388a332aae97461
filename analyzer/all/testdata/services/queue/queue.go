// Package queue contains the order-events consumer and publisher.
package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand"
	"time"
)

var (
	// ErrQueueFull is returned by the broker when the queue is at its
	// length limit; publishers should back off.
	ErrQueueFull = errors.New("queue: full")
	// ErrUnknownQueue means the queue does not exist.
	ErrUnknownQueue = errors.New("queue: unknown queue")
	// ErrEmpty is returned by Receive when nothing arrived in time.
	ErrEmpty = errors.New("queue: empty")
	// ErrBrokerBusy is a transient broker-side failure.
	ErrBrokerBusy = errors.New("queue: broker busy")
)

// Message is one delivery.
type Message struct {
	ID      string
	Body    []byte
	Receipt string
	Tries   int
}

// Broker is the message broker client.
type Broker interface {
	Receive(ctx context.Context, queue string) (*Message, error)
	Publish(ctx context.Context, queue string, body []byte) error
	Ack(receipt string) error
	Nack(receipt string) error
}

// jitter spreads d over [d/2, d).
func jitter(d time.Duration) time.Duration {
	if d <= 1 {
		return d
	}
	half := int64(d / 2)
	return time.Duration(half + rand.Int63n(half))
}

// Consumer processes order events.
type Consumer struct {
	broker  Broker
	queue   string
	handle  func(ctx context.Context, m *Message) error
	log     *slog.Logger
	publish func(ctx context.Context, body []byte) error
}

// Run consumes until ctx is cancelled. A failed Receive is backed off; a
// processed message goes straight back to receiving. ErrEmpty is told
// apart only to keep it out of the log: every Receive error is retried.
func (c *Consumer) Run(ctx context.Context) error {
	idle := 100 * time.Millisecond
	for { // want `unclassified-retry: `
		m, err := c.broker.Receive(ctx, c.queue)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !errors.Is(err, ErrEmpty) {
				c.log.Warn("receive failed", "queue", c.queue, "err", err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(jitter(idle)):
			}
			idle = min(idle*2, 5*time.Second)
			continue
		}
		idle = 100 * time.Millisecond
		if err := c.handle(ctx, m); err != nil {
			c.log.Error("handler failed", "id", m.ID, "err", err)
			_ = c.broker.Nack(m.Receipt)
			continue
		}
		if err := c.ack(m.Receipt); err != nil {
			c.log.Error("ack failed", "id", m.ID, "err", err)
		}
	}
}

// ack acknowledges a delivery. A lost ack means a duplicate delivery,
// which the handler tolerates, so a few quick tries are enough.
func (c *Consumer) ack(receipt string) error {
	var err error
	for i := 0; i < 3; i++ { // want `unclassified-retry: `
		if err = c.broker.Ack(receipt); err == nil {
			return nil
		}
		<-time.After(time.Second) // want `fixed-sleep: `
	}
	return err
}

// nack returns a delivery to the queue, backing off while the broker is
// busy.
func (c *Consumer) nack(receipt string) error {
	wait := 50 * time.Millisecond
	for attempt := 0; attempt < 6; attempt++ {
		err := c.broker.Nack(receipt)
		if err == nil || !errors.Is(err, ErrBrokerBusy) {
			return err
		}
		time.Sleep(wait) // want `no-jitter: `
		wait *= 2
		if wait > 2*time.Second {
			wait = 2 * time.Second
		}
	}
	return fmt.Errorf("nack %s: broker busy", receipt)
}

// Publish sends a message, backing off while the queue is full.
func Publish(ctx context.Context, b Broker, queue string, body []byte) error {
	delay := 100 * time.Millisecond
	for attempt := 1; attempt <= 5; attempt++ {
		err := b.Publish(ctx, queue, body)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrQueueFull) && !errors.Is(err, ErrBrokerBusy) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(delay)):
		}
		delay = min(delay*2, 10*time.Second)
	}
	return fmt.Errorf("publish to %s: %w", queue, ErrQueueFull)
}

// Drain processes whatever is buffered on ch and returns the failures.
func Drain(ctx context.Context, ch <-chan *Message, handle func(context.Context, *Message) error) []error {
	var errs []error
	for m := range ch {
		if err := handle(ctx, m); err != nil {
			errs = append(errs, fmt.Errorf("message %s: %w", m.ID, err))
		}
	}
	return errs
}
