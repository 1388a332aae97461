// Package mq contains the producer and consumer used by the event pipeline.
package mq

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"time"
)

var (
	ErrNotConnected  = errors.New("mq: not connected")
	ErrChannelClosed = errors.New("mq: channel closed")
	ErrNackd         = errors.New("mq: broker nacked publish")
	ErrTooLarge      = errors.New("mq: message too large")
)

type Message struct {
	ID   string
	Body []byte
	Ack  func() error
	Nack func(requeue bool) error
}

type Broker interface {
	Publish(topic string, body []byte) error
	PublishCtx(ctx context.Context, topic string, body []byte) error
	Receive(ctx context.Context) (*Message, error)
}

type Producer struct {
	broker     Broker
	topic      string
	retryDelay time.Duration
	maxRetries int
	log        *slog.Logger
}

func NewProducer(b Broker, topic string) *Producer {
	return &Producer{broker: b, topic: topic, retryDelay: 500 * time.Millisecond, maxRetries: 3, log: slog.Default()}
}

// Send publishes msg and blocks until the broker accepts it.
func (p *Producer) Send(msg []byte) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		err := p.broker.Publish(p.topic, msg)
		if err == nil {
			return
		}
		p.log.Error("publish failed", "topic", p.topic, "err", err)
		time.Sleep(p.retryDelay) // want `fixed-sleep: `
	}
}

// SendConfirmed publishes with publisher confirms, retrying on channel loss.
func (p *Producer) SendConfirmed(ctx context.Context, msg []byte) error {
	wait := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt <= p.maxRetries; attempt++ {
		err = p.broker.PublishCtx(ctx, p.topic, msg)
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrChannelClosed) && !errors.Is(err, ErrNotConnected) && !errors.Is(err, ErrNackd) {
			return err
		}
		d := wait + rand.N(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
		wait = min(wait*2, 5*time.Second)
	}
	return err
}

// SendSync is used by the CLI tools that have no context.
func (p *Producer) SendSync(msg []byte) error {
	attempt := 0
retry: // want `unclassified-retry: `
	err := p.broker.Publish(p.topic, msg)
	if err != nil && attempt < p.maxRetries {
		attempt++
		time.Sleep(200 * time.Millisecond) // want `fixed-sleep: `
		goto retry
	}
	return err
}

// AckWithRetry acknowledges a message, retrying while the connection recovers.
func AckWithRetry(m *Message) error {
	for i := range 3 {
		err := m.Ack()
		if err == nil {
			return nil
		}
		if !errors.Is(err, ErrNotConnected) {
			return err
		}
		// 3 attempts: the longest wait is 400 ms, the attempt limit caps it.
		time.Sleep(100 * time.Millisecond << i) // want `no-jitter: `
	}
	return ErrNotConnected
}

// Consume hands every message to handle until ctx is cancelled.
func Consume(ctx context.Context, b Broker, handle func(context.Context, *Message) error) error {
	for { // want `unclassified-retry: `
		msg, err := b.Receive(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			slog.Warn("receive failed", "err", err)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Second + rand.N(time.Second)):
			}
			continue
		}
		if err := handle(ctx, msg); err != nil {
			slog.Error("handler failed, requeueing", "id", msg.ID, "err", err)
			_ = msg.Nack(true)
			continue
		}
		_ = msg.Ack()
	}
}

// FlushBatches publishes queued batches at a fixed rate to stay under the broker quota.
func FlushBatches(ctx context.Context, b Broker, topic string, batches [][]byte, perSecond int) error {
	limiter := time.NewTicker(time.Second / time.Duration(perSecond))
	defer limiter.Stop()
	for _, batch := range batches {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-limiter.C:
		}
		if err := b.PublishCtx(ctx, topic, batch); err != nil {
			return err
		}
	}
	return nil
}

// Republish moves dead-lettered messages back to the main topic.
func Republish(ctx context.Context, b Broker, topic string, msgs []*Message) (moved int, err error) {
	for _, m := range msgs {
		if err := b.PublishCtx(ctx, topic, m.Body); err != nil {
			if errors.Is(err, ErrTooLarge) {
				slog.Warn("skipping oversized message", "id", m.ID)
				continue
			}
			return moved, err
		}
		moved++
		if err := m.Ack(); err != nil {
			return moved, err
		}
	}
	return moved, nil
}

// PublishUntilAccepted retries forever with doubling delay; used by the outbox relay.
func (p *Producer) PublishUntilAccepted(ctx context.Context, msg []byte) error {
	delay := p.retryDelay
	for {
		err := p.broker.PublishCtx(ctx, p.topic, msg)
		if err == nil {
			return nil
		}
		if errors.Is(err, ErrTooLarge) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-jitter: ` `no-cap: `
		}
		delay *= 2
	}
}

// Declare declares the topic on start-up, retrying while the broker comes up.
func Declare(ctx context.Context, declare func(context.Context, string) error, topic string) error {
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		err = declare(ctx, topic)
		if err == nil || !errors.Is(err, ErrNotConnected) {
			return err
		}
		delay := min(50*time.Millisecond<<attempt, 3*time.Second)
		time.Sleep(delay/2 + rand.N(delay/2)) // want `sleep-ignores-context: `
	}
	return err
}
