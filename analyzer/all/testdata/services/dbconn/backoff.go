package dbconn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// expBackoff hands out full-jitter delays that double up to max.
type expBackoff struct {
	cur, max time.Duration
}

func (b *expBackoff) Next() time.Duration {
	d := rand.N(b.cur) + time.Millisecond
	b.cur = min(b.cur*2, b.max)
	return d
}

// doubling hands out 1x, 2x, 4x ... the initial delay.
type doubling struct {
	d time.Duration
}

func (b *doubling) Next() time.Duration {
	d := b.d
	b.d *= 2
	return d
}

// Refresh re-opens the replica handle after a failover.
func (p *Pool) Refresh(ctx context.Context) error {
	b := &expBackoff{cur: 100 * time.Millisecond, max: 5 * time.Second}
	var err error
	for attempt := 0; attempt < 6; attempt++ {
		var db *sql.DB
		db, err = p.open()
		if err == nil {
			p.db = db
			return nil
		}
		if !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(b.Next()):
		}
	}
	return fmt.Errorf("refresh replica: %w", err)
}

// Resync re-opens the replica for the offline verifier.
func (p *Pool) Resync() error {
	b := &doubling{d: 250 * time.Millisecond}
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		var db *sql.DB
		db, err = p.open()
		if err == nil {
			p.db = db
			return nil
		}
		if !errors.Is(err, errReplicaLagging) && !transient(err) {
			return err
		}
		time.Sleep(b.Next()) // want `no-jitter: ` `no-cap: `
	}
	return fmt.Errorf("resync replica: %w", err)
}

var errReplicaLagging = errors.New("dbconn: replica lagging")
