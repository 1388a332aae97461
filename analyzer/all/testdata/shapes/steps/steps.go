// Package steps holds loops whose wait sits in a helper: the helper runs
// the operation once and, where it failed, waits before it returns. The
// loop that calls it again and again retries on the helper's clock, also
// when a ticker paces every round, since the failure waits longer.
package steps

import (
	"context"
	"errors"
	"log"
	"math/rand/v2"
	"time"
)

// Catalog is a service catalog.
type Catalog interface {
	Services(ctx context.Context, index uint64) (map[string][]string, uint64, error)
}

// Discovery watches the catalog.
type Discovery struct {
	catalog Catalog
	refresh time.Duration
	index   uint64
	out     chan<- []string
}

const retryInterval = 15 * time.Second

var errForbidden = errors.New("forbidden")

// watch refreshes the service list once; after a failure it waits.
func (d *Discovery) watch(ctx context.Context) {
	srvs, index, err := d.catalog.Services(ctx, d.index)
	if err != nil {
		log.Printf("refresh services: %v", err)
		time.Sleep(retryInterval)
		return
	}
	d.index = index
	for name := range srvs {
		d.out <- []string{name}
	}
}

// watchCarefully gives up on what cannot succeed and waits a random
// time, or until the context ends, after anything else.
func (d *Discovery) watchCarefully(ctx context.Context) {
	srvs, index, err := d.catalog.Services(ctx, d.index)
	if err != nil {
		if errors.Is(err, errForbidden) {
			return
		}
		t := time.NewTimer(retryInterval/2 + rand.N(retryInterval))
		defer t.Stop()
		select {
		case <-ctx.Done():
		case <-t.C:
		}
		return
	}
	d.index = index
	for name := range srvs {
		d.out <- []string{name}
	}
}

// refreshOnce logs a failure and waits for nothing.
func (d *Discovery) refreshOnce(ctx context.Context) {
	srvs, index, err := d.catalog.Services(ctx, d.index)
	if err != nil {
		log.Printf("refresh services: %v", err)
		return
	}
	d.index = index
	d.out <- mapKeys(srvs)
}

func mapKeys(m map[string][]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// Run re-watches until the context ends.
func (d *Discovery) Run(ctx context.Context) {
	for ctx.Err() == nil { // want `unclassified-retry: `
		d.watch(ctx) // want `fixed-sleep: ` `sleep-ignores-context: `
	}
}

// Poll refreshes on a ticker; a failure waits retryInterval on top.
func (d *Discovery) Poll(ctx context.Context) {
	ticker := time.NewTicker(d.refresh)
	defer ticker.Stop()
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			return
		default:
			d.watch(ctx) // want `fixed-sleep: ` `sleep-ignores-context: `
			<-ticker.C
		}
	}
}

// RunCarefully uses the step that classifies and waits well.
func (d *Discovery) RunCarefully(ctx context.Context) {
	for ctx.Err() == nil {
		d.watchCarefully(ctx)
	}
}

// PollPlain refreshes on a ticker, success or not: a poll, not a retry.
func (d *Discovery) PollPlain(ctx context.Context) {
	ticker := time.NewTicker(d.refresh)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			d.refreshOnce(ctx)
		}
	}
}
