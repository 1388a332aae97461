package dbconn

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// ErrLockHeld means another migrator holds the advisory lock.
var ErrLockHeld = errors.New("dbconn: migration lock held")

// Migrator applies schema migrations under an advisory lock.
type Migrator struct {
	DB      *sql.DB
	tryLock func() error
	lockCtx func(ctx context.Context) error
}

// acquireLock grabs the advisory lock, polling while another instance
// holds it.
func (m *Migrator) acquireLock() error {
	attempts := 0
retry: // want `unclassified-retry: `
	err := m.tryLock()
	if err != nil {
		attempts++
		if attempts < 20 {
			time.Sleep(500 * time.Millisecond) // want `fixed-sleep: `
			goto retry
		}
		return fmt.Errorf("migration lock: %w", err)
	}
	return nil
}

// acquireLockCtx is the context-aware variant used by the online migrator.
// Only ErrLockHeld is worth waiting for.
func (m *Migrator) acquireLockCtx(ctx context.Context) error {
	attempt := 0
	const maxLockAttempts = 12
	for err := m.lockCtx(ctx); err != nil; err = m.lockCtx(ctx) {
		if !errors.Is(err, ErrLockHeld) {
			return err
		}
		attempt++
		if attempt == maxLockAttempts {
			return fmt.Errorf("migration lock still held after %d attempts", attempt)
		}
		wait := min(time.Duration(1<<attempt)*50*time.Millisecond, 5*time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait/2 + rand.N(wait/2)):
		}
	}
	return nil
}

// applyStep runs one migration statement; statement timeouts on a busy
// primary are retried a few times.
func (m *Migrator) applyStep(ctx context.Context, stmt string) error {
	tries := 0
again:
	_, err := m.DB.ExecContext(ctx, stmt)
	if err == nil {
		return nil
	}
	var pe *PgError
	if errors.As(err, &pe) && pe.Code == "57014" && tries < 3 { // query_canceled
		tries++
		d := min(time.Duration(tries)*time.Second, 3*time.Second)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d/2 + rand.N(d/2)):
		}
		goto again
	}
	return err
}
