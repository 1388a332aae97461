package bounds

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// Group rejoins a consumer group.
type Group struct {
	ctx      context.Context
	quitting chan struct{}
	backoff  func(int) time.Duration
}

func (g *Group) joinAndSync() error { return nil }

// refreshMetadata asks the brokers for fresh metadata.
func (g *Group) refreshMetadata(ctx context.Context) {
	if req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://broker/metadata", nil); err == nil {
		if res, err := http.DefaultClient.Do(req); err == nil {
			res.Body.Close()
		}
	}
}

// failWait waits out a back-off and says whether the group's context
// ended meanwhile.
func (g *Group) failWait(n int, err error) (ctxCanceled bool) {
	if errors.Is(err, context.Canceled) {
		return true
	}
	g.refreshMetadata(g.ctx)
	t := time.NewTimer(g.backoff(n))
	select {
	case <-g.ctx.Done():
		t.Stop()
		return true
	case <-t.C:
	}
	return false
}

// manage rejoins after every error until failWait says the context
// ended: bounded by the context, but every error is retried.
func (g *Group) manage() {
	consecutive := 0
	for { // want `unclassified-retry: `
		err := g.joinAndSync()
		if err == nil {
			consecutive = 0
			continue
		}
		consecutive++
		if ctxCanceled := g.failWait(consecutive, err); ctxCanceled {
			return
		}
	}
}

// manageAssigned keeps the helper's answer in a variable first.
func (g *Group) manageAssigned() {
	consecutive := 0
	for { // want `unclassified-retry: `
		err := g.joinAndSync()
		if err == nil {
			consecutive = 0
			continue
		}
		consecutive++
		ctxCanceled := g.failWait(consecutive, err)
		if ctxCanceled {
			return
		}
	}
}

// logWait waits and reports whether it waited long: true says nothing of
// the context.
func (g *Group) logWait(n int) bool {
	d := g.backoff(n)
	time.Sleep(d)
	return d > time.Second
}

// manageForever leaves on logWait's answer, which is no context exit.
func (g *Group) manageForever() {
	n := 0
	for { // want `unbounded-retry: ` `unclassified-retry: `
		if err := g.joinAndSync(); err == nil {
			return
		}
		n++
		if g.logWait(n) { // want `sleep-ignores-context: `
			continue
		}
	}
}

// subscribe fetches until quitting or the context ends, which set the
// loop's flag.
func (g *Group) subscribe() {
	var terminating bool
	for !terminating { // want `unclassified-retry: `
		if err := g.joinAndSync(); err != nil {
			after := time.NewTimer(time.Duration(rand.N(30)) * time.Second)
			select {
			case <-g.ctx.Done():
				terminating = true
			case <-g.quitting:
				terminating = true
			case <-after.C:
			}
			continue
		}
		return
	}
}

// subscribeOnce sets its flag only after a success: nothing ends the
// failures.
func (g *Group) subscribeOnce() {
	var done bool
	for !done { // want `unbounded-retry: ` `unclassified-retry: `
		if err := g.joinAndSync(); err != nil {
			time.Sleep(time.Duration(rand.N(30)) * time.Second) // want `sleep-ignores-context: `
			continue
		}
		done = true
	}
}

// waitForServer polls until the server answers, and panics when its
// deadline passes: the panic bounds it.
func waitForServer(url string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for { // want `unclassified-retry: `
		select {
		case <-ctx.Done():
			panic("server did not start")
		case <-time.After(time.Duration(rand.N(100)) * time.Millisecond):
			res, err := http.Get(url)
			if err == nil {
				res.Body.Close()
				return
			}
		}
	}
}

// waitForever panics only on a failure it cannot handle: no bound.
func waitForever(url string) {
	for { // want `unbounded-retry: ` `unclassified-retry: `
		res, err := http.Get(url)
		if err == nil {
			res.Body.Close()
			return
		}
		if url == "" {
			panic("no url")
		}
		time.Sleep(time.Duration(rand.N(100)) * time.Millisecond)
	}
}
