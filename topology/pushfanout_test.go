package topology_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/growth"
	"github.com/retrylint/retrylint/topology"
)

// pushFanOut is n push subscriptions, each to the run.app URL of its own service, whose
// host the service's name only begins ("svc-7-v2-x.a.run.app" for svc-7), as a custom domain
// label or a revision tag gives: each URL is resolved by the longest name it begins with.
func pushFanOut(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "---\nname: projects/p/subscriptions/sub-%d\ntopic: projects/p/topics/t\nackDeadlineSeconds: 60\n"+
			"deadLetterPolicy:\n  deadLetterTopic: projects/p/topics/dlq\n  maxDeliveryAttempts: 5\n"+
			"pushConfig:\n  pushEndpoint: https://svc-%d-v2-x.a.run.app/push\n", i, i)
		fmt.Fprintf(&b, "---\napiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: svc-%d\n", i)
	}
	return []byte(b.String())
}

// TestPushFanOutResolved: each subscription reaches the service its URL names.
func TestPushFanOutResolved(t *testing.T) {
	g, err := topology.LoadBytes("fanout.yaml", pushFanOut(3), topology.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range g.Edges {
		if e.From.Kind == topology.KindSubscription {
			n++
			if want := "svc-" + strings.TrimPrefix(e.From.Name, "sub-"); e.To.Name != want || e.To.Assumed {
				t.Errorf("%s delivers to %s, want %s", e.From.Name, e.To.Name, want)
			}
		}
	}
	if n != 3 || len(g.Findings) != 0 {
		t.Errorf("%d deliveries, want 3; findings %v", n, g.Findings)
	}
}

// TestPushFanOutLinear: resolving n push endpoints costs O(n), not a scan of every
// component for each.
func TestPushFanOutLinear(t *testing.T) {
	growth.Linear(t, 1000, pushFanOut, func(src []byte) {
		if _, err := topology.LoadBytes("fanout.yaml", src, topology.Options{}); err != nil {
			t.Fatal(err)
		}
	})
}
