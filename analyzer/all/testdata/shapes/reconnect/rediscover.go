package reconnect

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Joiner joins a cluster through a node's address.
type Joiner interface {
	Join(ctx context.Context, addr string) (string, error)
}

// Discovery tells which node leads.
type Discovery interface {
	Leader(id string) (bool, string, error)
}

// ErrNotLeader is the answer of a node that no longer leads.
var ErrNotLeader = errors.New("not the leader")

// Rejoin asks the discovery service for a new leader after each failed
// join, logging its failure: the join is retried for ever, every error, a
// constant second apart.
func Rejoin(ctx context.Context, j Joiner, d Discovery, id, addr string) {
	for { // want `unbounded-retry: retry loop` `unclassified-retry: retry loop retries every error of j.Join`
		if _, err := j.Join(ctx, addr); err != nil {
			log.Printf("join %s: %v", addr, err)
			time.Sleep(time.Second) // want `fixed-sleep: ` `sleep-ignores-context: `
			_, addr, err = d.Leader(id)
			if err != nil {
				log.Printf("leader: %v", err)
			}
			continue
		}
		return
	}
}

// RejoinBounded retries only a node that no longer leads, five times,
// with a jittered, capped wait the context ends.
func RejoinBounded(ctx context.Context, j Joiner, d Discovery, id, addr string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if _, err = j.Join(ctx, addr); err == nil {
			return nil
		}
		if !errors.Is(err, ErrNotLeader) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(min(100*time.Millisecond<<attempt, 5*time.Second))):
		}
		_, addr, err = d.Leader(id)
		if err != nil {
			log.Printf("leader: %v", err)
		}
	}
	return err
}

// Report syncs and reports on every tick, whatever happened: the error
// variable moves on to the report, and the loop is periodic.
func Report(ctx context.Context, sync, report func() error) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		err := sync()
		if err != nil {
			log.Printf("sync: %v", err)
			err = report()
			if err != nil {
				log.Printf("report: %v", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
