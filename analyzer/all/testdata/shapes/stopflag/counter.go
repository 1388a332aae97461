package stopflag

import (
	"net"
	"sync/atomic"
	"time"
)

// Transport is closed by setting shutdown to 1.
type Transport struct {
	shutdown int32
	closed   atomic.Int32
	accepted atomic.Int32
	conns    chan net.Conn
}

// acceptLoop leaves when shutdown is set: the listener's owner is
// shutting down.
func (t *Transport) acceptLoop(ln *net.TCPListener) {
	delay := 5 * time.Millisecond
	for { // want `unclassified-retry: retry loop retries every error of ln.AcceptTCP`
		conn, err := ln.AcceptTCP()
		if err != nil {
			if s := atomic.LoadInt32(&t.shutdown); s == 1 {
				break
			}
			time.Sleep(delay) // want `no-jitter: `
			delay = min(2*delay, time.Second)
			continue
		}
		delay = 5 * time.Millisecond
		t.conns <- conn
	}
}

// acceptLoopTyped reads the flag through atomic.Int32.
func (t *Transport) acceptLoopTyped(ln *net.TCPListener) {
	for { // want `unclassified-retry: retry loop retries every error of ln.AcceptTCP`
		conn, err := ln.AcceptTCP()
		if err != nil {
			if t.closed.Load() == 1 {
				return
			}
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		t.conns <- conn
	}
}

// acceptCounting tests a counter that says nothing of shutting down:
// the loop has no way out.
func (t *Transport) acceptCounting(ln *net.TCPListener) {
	for { // want `unbounded-retry: ` `unclassified-retry: retry loop retries every error of ln.AcceptTCP`
		conn, err := ln.AcceptTCP()
		if err != nil {
			if t.accepted.Load() == 1 {
				t.accepted.Store(0)
			}
			time.Sleep(time.Second) // want `fixed-sleep: `
			continue
		}
		t.accepted.Add(1)
		t.conns <- conn
	}
}
