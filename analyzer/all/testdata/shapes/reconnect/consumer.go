package reconnect

import (
	"context"
	"errors"
	"math/rand/v2"
	"net"
	"time"
)

// ErrQueueGone is the broker's answer for a queue that was deleted.
var ErrQueueGone = errors.New("queue gone")

// ConsumeClassified retries a failed receive only while it is transient,
// after a jittered wait that ends with the context: nothing to report.
func ConsumeClassified(ctx context.Context, receive func(context.Context) (*Message, error), handle func(*Message)) error {
	for ctx.Err() == nil {
		m, err := receive(ctx)
		if errors.Is(err, ErrQueueGone) {
			return err
		}
		if err != nil {
			select {
			case <-ctx.Done():
			case <-time.After(rand.N(2 * time.Second)):
			}
			continue
		}
		handle(m)
	}
	return ctx.Err()
}

// ConsumePaced waits the same after a message and after a failure: a
// paced reader, not a retry.
func ConsumePaced(ctx context.Context, receive func(context.Context) (*Message, error), handle func(*Message)) {
	for ctx.Err() == nil {
		m, err := receive(ctx)
		if err == nil {
			handle(m)
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// ReadPackets reads until the socket is closed and retries nothing: a
// read error ends it.
func ReadPackets(c net.PacketConn, out chan<- []byte) error {
	for {
		buf := make([]byte, 1500)
		n, _, err := c.ReadFrom(buf)
		if err != nil {
			return err
		}
		out <- buf[:n]
	}
}

// ReadPacketsRetrying pauses a constant second after a failed read and
// reads again until the socket is closed.
func ReadPacketsRetrying(c net.PacketConn, out chan<- []byte) error {
	for {
		buf := make([]byte, 1500)
		n, _, err := c.ReadFrom(buf)
		if errors.Is(err, net.ErrClosed) {
			return err
		}
		if err != nil {
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		out <- buf[:n]
	}
}
