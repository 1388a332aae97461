package adapter

import (
	"context"
	"time"
)

type batcher struct {
	pending chan string
	probe   func(name string) (bool, error)
	send    func(batch []string) error
}

// loop gathers requests and sends them. An optional probe whose failure
// only skips its use does not make the loop a retry of it: the loop waits
// for more work whether or not the probe answered.
func (b *batcher) loop(ctx context.Context) {
	for {
		batch := b.collect()
		if len(batch) == 0 {
			return
		}
		if slow, err := b.probe("block"); err == nil {
			if slow {
				time.Sleep(time.Hour)
			}
		}
		if len(batch) < 8 {
			b.wait(10 * time.Millisecond)
		}
		_ = b.send(batch)
	}
}

// loopRetry goes round after the probe fails, skipping the send: the
// failure has a way of its own, and the loop retries the probe.
func (b *batcher) loopRetry(ctx context.Context) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		batch := b.collect()
		if len(batch) == 0 {
			return
		}
		if err := b.ready(); err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
			continue
		}
		_ = b.send(batch)
	}
}

func (b *batcher) ready() error {
	_, err := b.probe("ready")
	return err
}

func (b *batcher) collect() []string {
	var out []string
	for {
		select {
		case s := <-b.pending:
			out = append(out, s)
		default:
			return out
		}
	}
}

func (b *batcher) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case s := <-b.pending:
		_ = s
	case <-t.C:
	}
}
