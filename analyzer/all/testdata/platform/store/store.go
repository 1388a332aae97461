// Package store wraps the SQL database used by the order service.
package store

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

// PgError is the subset of the driver's error we look at.
type PgError struct {
	Code    string
	Message string
}

func (e *PgError) Error() string { return e.Code + ": " + e.Message }

const (
	codeSerializationFailure = "40001"
	codeDeadlockDetected     = "40P01"
)

var ErrLockHeld = errors.New("store: migration lock held by another instance")

type Opener func() (*sql.DB, error)

// Connect opens the pool, retrying while the database container starts.
func Connect(open Opener, maxAttempts int) (*sql.DB, error) {
	for attempt := 1; ; attempt++ { // want `unclassified-retry: `
		db, err := open()
		if err == nil {
			return db, nil
		}
		if attempt >= maxAttempts {
			return nil, fmt.Errorf("connect after %d attempts: %w", attempt, err)
		}
		log.Printf("db not ready (attempt %d): %v", attempt, err)
		time.Sleep(time.Duration(attempt) * 500 * time.Millisecond) // want `no-jitter: ` `no-cap: `
	}
}

// InTx runs fn in a serializable transaction, re-running it on serialization
// failures and deadlocks.
func InTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	const maxAttempts = 5
	backoff := 5 * time.Millisecond
	var err error
	for attempt := 0; attempt < maxAttempts; attempt++ {
		err = runTx(ctx, db, fn)
		if err == nil {
			return nil
		}
		var pgErr *PgError
		if !errors.As(err, &pgErr) || (pgErr.Code != codeSerializationFailure && pgErr.Code != codeDeadlockDetected) {
			return err
		}
		sleep := backoff/2 + rand.N(backoff/2+1)
		t := time.NewTimer(sleep)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		backoff = min(backoff*2, 500*time.Millisecond)
	}
	return fmt.Errorf("transaction failed after %d attempts: %w", maxAttempts, err)
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

// WaitForDB blocks until the database answers a ping.
func WaitForDB(ctx context.Context, db *sql.DB) error {
	for { // want `unclassified-retry: `
		err := db.PingContext(ctx)
		if err == nil {
			return nil
		}
		log.Printf("waiting for database: %v", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second): // want `fixed-sleep: `
		}
	}
}

// ExecWithDeadlockRetry is used by the nightly batch job; it has no request context.
func ExecWithDeadlockRetry(db *sql.DB, query string, args ...any) (sql.Result, error) {
	var lastErr error
	for i := range 4 {
		res, err := db.Exec(query, args...)
		if err == nil {
			return res, nil
		}
		var pgErr *PgError
		if !errors.As(err, &pgErr) || pgErr.Code != codeDeadlockDetected {
			return nil, err
		}
		lastErr = err
		ceil := min(10*time.Millisecond<<i, 200*time.Millisecond)
		time.Sleep(rand.N(ceil))
	}
	return nil, lastErr
}

// AcquireMigrationLock waits for the advisory lock to become free.
func AcquireMigrationLock(db *sql.DB, timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); {
		var ok bool
		if err := db.QueryRow("SELECT pg_try_advisory_lock(42)").Scan(&ok); err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(250 * time.Millisecond)
	}
	return ErrLockHeld
}

// Listener re-establishes the LISTEN connection whenever it drops.
type Listener struct {
	Dial    func(ctx context.Context) (net.Conn, error)
	Handle  func(ctx context.Context, c net.Conn) error
	MinWait time.Duration
	MaxWait time.Duration
}

// Run keeps the listener connected until ctx is cancelled.
func (l *Listener) Run(ctx context.Context) error {
	wait := l.MinWait
	for {
		conn, err := l.Dial(ctx)
		if err == nil {
			wait = l.MinWait
			err = l.Handle(ctx, conn)
			conn.Close()
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, syscall.EACCES) {
			return err
		}
		log.Printf("listener disconnected: %v", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(rand.N(wait) + 1):
		}
		wait = min(wait*2, l.MaxWait)
	}
}

// Reconnect re-dials the replica after a failover.
func Reconnect(addr string) net.Conn {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
		if err == nil {
			return conn
		}
		time.Sleep(time.Duration(1+rand.IntN(5)) * time.Second)
	}
}

// BulkInsert writes rows in chunks, pausing between chunks to spare the primary.
func BulkInsert(db *sql.DB, rows [][]any, chunk int, pause time.Duration) error {
	for start := 0; start < len(rows); start += chunk {
		end := min(start+chunk, len(rows))
		for _, r := range rows[start:end] {
			if _, err := db.Exec("INSERT INTO events VALUES ($1, $2, $3)", r...); err != nil {
				return fmt.Errorf("row %d: %w", start, err)
			}
		}
		time.Sleep(pause)
	}
	return nil
}

// RefreshReplicaStats reloads replica lag statistics, retrying transient errors.
func RefreshReplicaStats(ctx context.Context, db *sql.DB) (map[string]time.Duration, error) {
	wait := 50 * time.Millisecond
	var lastErr error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		rows, err := db.QueryContext(ctx, "SELECT name, lag FROM replica_stats")
		if err == nil {
			defer rows.Close()
			out := map[string]time.Duration{}
			for rows.Next() {
				var name string
				var lag time.Duration
				if err := rows.Scan(&name, &lag); err != nil {
					return nil, err
				}
				out[name] = lag
			}
			return out, rows.Err()
		}
		if !errors.Is(err, sql.ErrConnDone) && !errors.Is(err, syscall.ECONNRESET) {
			return nil, err
		}
		lastErr = err
		time.Sleep(rand.N(wait)) // want `sleep-ignores-context: `
		wait = min(wait*2, 2*time.Second)
	}
	return nil, lastErr
}
