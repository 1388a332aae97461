// Package dbconn manages the connection to the orders database and the
// small amount of retry logic that belongs next to it.
package dbconn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"
	"math/rand/v2"
	"net"
	"syscall"
	"time"
)

// PgError is the subset of a server error we look at.
type PgError struct {
	Code    string // SQLSTATE
	Message string
}

func (e *PgError) Error() string { return e.Code + ": " + e.Message }

const (
	sqlstateSerializationFailure = "40001"
	sqlstateDeadlockDetected     = "40P01"
	sqlstateTooManyConnections   = "53300"
	sqlstateCannotConnectNow     = "57P03"
)

// transient reports whether err is a connection-level or server-overload
// failure that a new attempt may get past.
func transient(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var pe *PgError
	if errors.As(err, &pe) {
		return pe.Code == sqlstateTooManyConnections || pe.Code == sqlstateCannotConnectNow
	}
	return false
}

// Pinger is satisfied by *sql.DB.
type Pinger interface {
	PingContext(ctx context.Context) error
	Ping() error
}

// waitForDB blocks start-up until the database answers. Used by the
// migration job, which has nothing better to do.
func waitForDB(db Pinger) {
	for err := db.Ping(); err != nil; err = db.Ping() { // want `unbounded-retry: ` `unclassified-retry: `
		log.Printf("database not reachable yet: %v", err)
		time.Sleep(2 * time.Second) // want `fixed-sleep: `
	}
}

// OpenWithRetry pings until the database accepts connections, doubling the
// wait each time, ten times: 25.6 s before the last ping.
func OpenWithRetry(ctx context.Context, db Pinger) error {
	delay := 100 * time.Millisecond
	var err error
	for attempt := 0; attempt < 10; attempt++ {
		if err = db.PingContext(ctx); err == nil {
			return nil
		}
		if !transient(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay): // want `no-jitter: `
		}
		delay *= 2
	}
	return fmt.Errorf("database unavailable after 10 attempts: %w", err)
}

// Connect pings with decorrelated jitter (sleep = min(cap, random(base,
// 3*sleep))), giving up after eight attempts.
func Connect(ctx context.Context, db Pinger) error {
	const (
		base    = 100 * time.Millisecond
		ceiling = 10 * time.Second
	)
	sleep := base
	var err error
	for attempt := 0; attempt < 8; attempt++ {
		err = db.PingContext(ctx)
		if err == nil {
			return nil
		}
		if !transient(err) {
			return fmt.Errorf("connect: %w", err)
		}
		sleep = min(ceiling, base+rand.N(3*sleep-base+1))
		t := time.NewTimer(sleep)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return fmt.Errorf("connect: gave up: %w", err)
}

// Pool keeps one connection to the read replica alive.
type Pool struct {
	open   func() (*sql.DB, error)
	db     *sql.DB
	logger *log.Logger
}

// reconnect replaces a dead replica connection. It keeps trying for as long
// as the failure looks like a network problem.
func (p *Pool) reconnect() error {
	delay := 200 * time.Millisecond
	for { // want `unbounded-retry: `
		db, err := p.open()
		if err == nil {
			p.db = db
			return nil
		}
		if !transient(err) {
			return err
		}
		p.logger.Printf("replica reconnect failed: %v", err)
		time.Sleep(delay/2 + rand.N(delay/2))
		delay = min(delay*2, 30*time.Second)
	}
}

// pingUntil keeps pinging until the deadline passes.
func pingUntil(db Pinger, deadline time.Time) error {
	delay := 50 * time.Millisecond
	for time.Now().Before(deadline) {
		err := db.Ping()
		if err == nil {
			return nil
		}
		if !transient(err) {
			return err
		}
		time.Sleep(rand.N(delay))
		delay = min(delay*2, 2*time.Second)
	}
	return errors.New("database did not come up before the deadline")
}

// InTx runs fn in a serializable transaction, retrying on serialization
// failures and deadlocks as Postgres recommends.
func InTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	const maxAttempts = 5
	backoff := 10 * time.Millisecond
	for attempt := 1; ; attempt++ {
		err := runTx(ctx, db, fn)
		if err == nil {
			return nil
		}
		var pe *PgError
		retry := errors.As(err, &pe) &&
			(pe.Code == sqlstateSerializationFailure || pe.Code == sqlstateDeadlockDetected)
		if !retry || attempt == maxAttempts {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(backoff)):
		}
		backoff = min(backoff*2, time.Second)
	}
}

func runTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelSerializable})
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}
