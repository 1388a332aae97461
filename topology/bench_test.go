package topology_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/retrylint/retrylint/rules"
	"github.com/retrylint/retrylint/topology"
)

// generateTree writes n manifests into dir, in groups of five linked
// files: a push subscription → a service; a trigger → a workflow that runs a
// job; the job.
func generateTree(tb testing.TB, dir string, n int) {
	tb.Helper()
	for i := 0; i < n; i++ {
		g := i / 5
		sub := filepath.Join(dir, fmt.Sprintf("team%03d", g%100), fmt.Sprintf("g%05d", g))
		var name, src string
		switch i % 5 {
		case 0:
			name = "subscription.yaml"
			src = fmt.Sprintf("ackDeadlineSeconds: 60\ndeadLetterPolicy:\n  deadLetterTopic: projects/p/topics/dlq\n  maxDeliveryAttempts: 5\nname: projects/p/subscriptions/sub-%d\npushConfig:\n  pushEndpoint: https://svc-%d-abc123-uc.a.run.app/\ntopic: projects/p/topics/t-%d\n", g, g, g)
		case 1:
			name = "service.yaml"
			src = fmt.Sprintf("apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata:\n  name: svc-%d\nspec:\n  template:\n    spec:\n      timeoutSeconds: 300\n", g)
		case 2:
			name = "trigger.yaml"
			src = fmt.Sprintf("destination:\n  workflow: projects/p/locations/l/workflows/flow-%d\nname: projects/p/locations/l/triggers/trig-%d\n", g, g)
		case 3:
			name = fmt.Sprintf("flow-%d.yaml", g)
			src = fmt.Sprintf("main:\n  params: [event]\n  steps:\n    - run:\n        try:\n          call: googleapis.run.v1.namespaces.jobs.run\n          args:\n            name: namespaces/p/jobs/job-%d\n        retry:\n          predicate: ${http.default_retry_predicate}\n          max_retries: 2\n          backoff: {initial_delay: 1, max_delay: 60, multiplier: 2}\n    - done:\n        return: ok\n", g)
		case 4:
			name = "job.yaml"
			src = fmt.Sprintf("apiVersion: run.googleapis.com/v1\nkind: Job\nmetadata:\n  name: job-%d\nspec:\n  template:\n    spec:\n      template:\n        spec:\n          maxRetries: 1\n          timeoutSeconds: '300'\n", g)
		}
		p := filepath.Join(sub, name)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkLoad10000Manifests loads, links, multiplies and checks a tree of
// 10,000 generated manifests.
func BenchmarkLoad10000Manifests(b *testing.B) {
	dir := b.TempDir()
	generateTree(b, dir, 10000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		findings, mult := rules.Run(g, rules.Options{})
		if len(g.Components) != 10000 || len(findings) == 0 || len(mult.Chains) == 0 {
			b.Fatalf("%d components, %d findings, %d chains", len(g.Components), len(findings), len(mult.Chains))
		}
	}
}

func TestGeneratedTree(t *testing.T) {
	dir := t.TempDir()
	generateTree(t, dir, 50)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Components) != 50 || len(g.Findings) != 0 {
		t.Fatalf("%d components, unresolved %v", len(g.Components), g.Findings)
	}
}
