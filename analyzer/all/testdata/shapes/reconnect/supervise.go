package reconnect

import (
	"context"
	"log"
	"time"
)

// Group consumes topics until it fails or the context ends.
type Group interface {
	Consume(ctx context.Context, topics []string, h *handler) error
}

type handler struct{ max int }

func newHandler(max int) *handler { return &handler{max: max} }

// Consumer restarts its consumer group after a failure.
type Consumer struct {
	group  Group
	topics []string
	delay  time.Duration
}

// Run builds a fresh handler and a copy of the topics each round: values
// it builds, not items it fetched, so a failed Consume is retried.
func (c *Consumer) Run(ctx context.Context) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		h := newHandler(100)
		topics := make([]string, len(c.topics))
		copy(topics, c.topics)
		if err := c.group.Consume(ctx, topics, h); err != nil {
			log.Printf("consume: %v", err)
			time.Sleep(c.delay) // want `fixed-sleep: ` `sleep-ignores-context: `
		}
	}
}

// Events is a server-sent event client.
type Events interface {
	Subscribe(ctx context.Context, on func(event, data string)) error
}

// Feed subscribes to a data layer.
type Feed struct {
	connect func() (Events, error)
	on      func(event, data string)
}

// Follow reconnects to the feed: a failed connect waits, a subscription
// that ends goes round at once.
func (f *Feed) Follow(ctx context.Context) {
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		default:
			client, err := f.connect()
			if err != nil {
				log.Printf("connect: %v", err)
				time.Sleep(5 * time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
				continue
			}
			if err := client.Subscribe(ctx, f.on); err != nil {
				log.Printf("subscription ended: %v", err)
			}
		}
	}
}

// Queue hands out jobs.
type Queue interface {
	Fetch(ctx context.Context) (string, error)
}

// Worker processes one fetched job per round; a failed job waits before
// the next one: a loop over jobs, not a retry of one.
type Worker struct {
	queue   Queue
	process func(ctx context.Context, job string) error
}

func (w *Worker) Work(ctx context.Context) error {
	for ctx.Err() == nil {
		job, err := w.queue.Fetch(ctx)
		if err != nil {
			return err
		}
		if err := w.process(ctx, job); err != nil {
			log.Printf("job %s: %v", job, err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
	return ctx.Err()
}
