// Package conn holds a context in an unexported field.
package conn

import "context"

// Session keeps the context it was opened with.
type Session struct {
	ctx context.Context
	// Ctx is reachable from other packages.
	Ctx context.Context
}

// Ping fails while the peer is away.
func (s *Session) Ping() error { return nil }

// Private has only an unexported context.
type Private struct {
	ctx context.Context
}

// Ping fails while the peer is away.
func (p *Private) Ping() error { return p.ctx.Err() }
