package queue

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"
)

// ErrPoison marks a message that can never be processed.
var ErrPoison = errors.New("queue: poison message")

// Worker handles image-resize jobs. Each job gets up to three attempts in
// process before it is handed back to the broker.
type Worker struct {
	Broker  Broker
	Queue   string
	Resize  func(ctx context.Context, body []byte) error
	Log     *slog.Logger
	Timeout time.Duration
}

func retryableResizeErr(err error) bool {
	if errors.Is(err, ErrPoison) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout() || errors.Is(err, context.DeadlineExceeded)
}

// Loop receives and processes jobs until ctx is done.
func (w *Worker) Loop(ctx context.Context) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		m, err := w.Broker.Receive(ctx, w.Queue)
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(jitter(time.Second)):
			}
			continue
		}
		w.process(ctx, m)
	}
}

func (w *Worker) process(ctx context.Context, m *Message) {
	backoff := 200 * time.Millisecond
	for attempt := 0; attempt < 3; attempt++ {
		jobCtx, cancel := context.WithTimeout(ctx, w.Timeout)
		err := w.Resize(jobCtx, m.Body)
		cancel()
		if err == nil {
			_ = w.Broker.Ack(m.Receipt)
			return
		}
		if !retryableResizeErr(err) {
			w.Log.Error("dropping job", "id", m.ID, "err", err)
			_ = w.Broker.Ack(m.Receipt)
			return
		}
		select {
		case <-ctx.Done():
			_ = w.Broker.Nack(m.Receipt)
			return
		case <-time.After(jitter(backoff)):
		}
		backoff = min(backoff*4, 3*time.Second)
	}
	_ = w.Broker.Nack(m.Receipt)
}

// Reaper periodically releases leases of crashed workers. Nothing here is
// retried: a failed sweep is simply done again on the next tick.
func (w *Worker) Reaper(ctx context.Context, sweep func(context.Context) (int, error)) {
	timer := time.NewTimer(time.Minute)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		n, err := sweep(ctx)
		if err != nil {
			w.Log.Warn("reaper sweep failed", "err", err)
		} else if n > 0 {
			w.Log.Info("released leases", "count", n)
		}
		timer.Reset(time.Minute)
	}
}
