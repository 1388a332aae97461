package topology

import (
	"fmt"
	"testing"
)

// resolvePushFanOut resolves the push endpoints of n subscriptions, each to
// a run.app host that its service's name only begins, with n services and
// n subscriptions loaded; it returns the components examined.
func resolvePushFanOut(n int) int {
	lk := &linker{byName: map[string][]*Component{}, placeholder: map[string]*Component{}}
	var subs []*Component
	for i := 0; i < n; i++ {
		sub := &Component{Name: fmt.Sprintf("sub-%d", i), Kind: KindSubscription}
		lk.add(sub)
		lk.add(&Component{Name: fmt.Sprintf("svc-%d", i), Kind: KindService})
		subs = append(subs, sub)
	}
	for i, sub := range subs {
		call := &Call{Kind: EdgeDeliver}
		if got := lk.resolveURL(sub, call, fmt.Sprintf("https://svc-%d-v2-x.a.run.app/push", i)); got.Name != fmt.Sprintf("svc-%d", i) {
			panic("resolved to " + got.Name)
		}
	}
	return lk.probes
}

// TestPushEndpointResolutionLinear: resolving the push endpoints of 4n
// subscriptions examines about 4 times the components n do, not 16.
func TestPushEndpointResolutionLinear(t *testing.T) {
	const n = 2500
	a, b := resolvePushFanOut(n), resolvePushFanOut(4*n)
	if ratio := float64(b) / float64(max(a, 1)); ratio > 6 {
		t.Errorf("%d subscriptions examine %d components, %d examine %d: %.1f×, not linear", n, a, 4*n, b, ratio)
	}
}
