package batch

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"
)

// ErrStaleOffset means another consumer committed a later offset.
var ErrStaleOffset = errors.New("batch: stale offset")

// ErrCoordinatorMoved means the group coordinator is being re-elected.
var ErrCoordinatorMoved = errors.New("batch: coordinator moved")

// Offsets is the offset store of the consumer group.
type Offsets interface {
	Commit(ctx context.Context, partition int, offset int64) error
	CommitSync(partition int, offset int64) error
	Checkpoint(ctx context.Context, id string) error
}

const retryDelay = 400 * time.Millisecond

// commitSync is used at shutdown, when there is no context left. Each wait
// is the base delay plus up to the same again at random.
func commitSync(o Offsets, partition int, offset int64) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		err = o.CommitSync(partition, offset)
		if err == nil || errors.Is(err, ErrStaleOffset) {
			return err
		}
		if !errors.Is(err, ErrCoordinatorMoved) {
			return err
		}
		wait := retryDelay
		wait += time.Duration(rand.Int63n(int64(wait)))
		time.Sleep(wait)
	}
	return fmt.Errorf("commit partition %d: %w", partition, err)
}

// CommitOffset commits one offset while the coordinator moves.
func CommitOffset(ctx context.Context, o Offsets, partition int, offset int64) error {
	const (
		maxRetries = 5
		maxDelay   = 3 * time.Second
	)
	d := 100 * time.Millisecond
	for attempt := 0; ; attempt++ {
		if attempt > maxRetries {
			return fmt.Errorf("commit partition %d: coordinator unavailable", partition)
		}
		err := o.Commit(ctx, partition, offset)
		if err == nil || !errors.Is(err, ErrCoordinatorMoved) {
			return err
		}
		if d > maxDelay {
			d = maxDelay
		}
		t := time.NewTimer(time.Duration(rand.Int63n(int64(d))))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		d *= 2
	}
}

// Checkpoint records job progress; it stops when the job is cancelled.
func Checkpoint(ctx context.Context, o Offsets, id string) error {
	backoff := 250 * time.Millisecond
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := o.Checkpoint(ctx, id)
		if err == nil || !errors.Is(err, ErrCoordinatorMoved) {
			return err
		}
		time.Sleep(jitter(backoff)) // want `sleep-ignores-context: `
		backoff = min(backoff*2, 10*time.Second)
	}
}
