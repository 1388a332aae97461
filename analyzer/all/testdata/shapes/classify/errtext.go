package classify

import (
	"context"
	"log"
	"math/rand/v2"
	"strings"
	"time"
)

// pause waits a jittered second or until ctx ends.
func pause(ctx context.Context) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(time.Duration(rand.Int64N(int64(time.Second)))):
		return true
	}
}

// ReconnectByText gives up on the errors whose text says they cannot
// pass, the text read through a local: the failure is classified.
func ReconnectByText(ctx context.Context) {
	for {
		err := call(ctx)
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, "topic not found") || strings.Contains(msg, "fenced") {
			return
		}
		if !pause(ctx) {
			return
		}
	}
}

// ReconnectLogText only logs the text: every error goes round.
func ReconnectLogText(ctx context.Context) {
	for { // want `unclassified-retry: `
		err := call(ctx)
		if err == nil {
			return
		}
		msg := err.Error()
		log.Printf("reconnect: %s", msg)
		if !pause(ctx) {
			return
		}
	}
}

// ReconnectLocalText tests a string that says nothing of the failure.
func ReconnectLocalText(ctx context.Context, mode string) {
	for { // want `unclassified-retry: `
		err := call(ctx)
		if err == nil {
			return
		}
		label := strings.ToUpper(mode)
		if strings.Contains(label, "DRY") {
			log.Print("dry run")
		}
		if !pause(ctx) {
			return
		}
	}
}

// ReconnectUnauthorized goes round on purpose when the error's text says
// the caller is not authorized: a credential that is wrong stays wrong.
func ReconnectUnauthorized(ctx context.Context) {
	for { // want `retry-permanent: .*"Unauthorized"`
		err := call(ctx)
		if err == nil {
			return
		}
		if strings.Contains(err.Error(), "Unauthorized") {
			if !pause(ctx) {
				return
			}
			continue
		}
		return
	}
}

// ReconnectStopsUnauthorized gives up on that text and retries a timeout.
func ReconnectStopsUnauthorized(ctx context.Context) {
	for {
		err := call(ctx)
		if err == nil {
			return
		}
		msg := err.Error()
		if strings.Contains(msg, "Unauthorized") || !strings.Contains(msg, "timeout") {
			return
		}
		if !pause(ctx) {
			return
		}
	}
}
