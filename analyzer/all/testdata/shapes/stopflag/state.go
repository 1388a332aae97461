package stopflag

import (
	"sync"
	"time"
)

type probeState int

const (
	idle probeState = iota
	active
	stop
)

// Probe runs a health check until it passes, once a second, unless it is
// stopped: its state field, compared with the stop constant, ends it.
type Probe struct {
	sync.Mutex
	state    probeState
	interval time.Duration
}

// Do re-runs f after every failure until it passes or the probe stops.
func (p *Probe) Do(f func() error) {
	go func() {
		for { // want `unclassified-retry: `
			if err := f(); err == nil {
				break
			}
			time.Sleep(p.interval) // want `fixed-sleep: `
			p.Lock()
			if p.state == stop {
				p.Unlock()
				return
			}
			p.Unlock()
		}
		p.Lock()
		p.state = idle
		p.Unlock()
	}()
}

// DoWhileActive leaves only when the probe is no longer active: a state
// that says nothing about stopping is no bound.
func (p *Probe) DoWhileActive(f func() error) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if err := f(); err == nil {
			return
		}
		time.Sleep(p.interval) // want `fixed-sleep: `
		if p.state == active {
			continue
		}
	}
}
