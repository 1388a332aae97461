package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/model"
)

// appChains runs `retrylint topology --format json` on a topology file and
// returns its result.
func appChains(t *testing.T, file string) model.Result {
	t.Helper()
	js, stderr, code := runCLI(t, repoRoot(t), "--format", "json", "--fail-on", "never", file)
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	var res model.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func chainTo(t *testing.T, res model.Result, target string) model.Chain {
	t.Helper()
	for _, c := range res.Chains {
		if c.Target == target {
			return c
		}
	}
	t.Fatalf("no chain to %s", target)
	return model.Chain{}
}

// TestIncident1AppLayerFromCode: the mapping app's retries are read from
// its Go code, and the report says so: the innermost factor of gemini's 48
// is the loop in mapping/gemini/client.go, and transient-not-retried points
// at that loop.
func TestIncident1AppLayerFromCode(t *testing.T) {
	res := appChains(t, "examples/topology/incident1/retrylint.yaml")
	c := chainTo(t, res, "gemini")
	if c.Formula != "(2+1)×(3+1)×(3+1) = 48" {
		t.Errorf("gemini: formula %q, want (2+1)×(3+1)×(3+1) = 48", c.Formula)
	}
	last := c.Factors[len(c.Factors)-1]
	if last.Origin() != "examples/topology/incident1/mapping/gemini/client.go:30" || last.Retries == nil || *last.Retries != 3 {
		t.Errorf("innermost factor %+v, want 3 retries at examples/topology/incident1/mapping/gemini/client.go:30", last)
	}
	want := []string{"examples/topology/incident1/mapping-workflow.yaml:11", "examples/topology/incident1/mapping-job.yaml:15", "examples/topology/incident1/mapping/gemini/client.go:30"}
	if got := c.Origins(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("origins %v, want %v", got, want)
	}
	found := false
	for _, f := range res.Findings {
		if f.Rule == "transient-not-retried" {
			found = true
			if f.File != "examples/topology/incident1/mapping/gemini/client.go" || f.Line != 30 {
				t.Errorf("transient-not-retried at %s:%d, want the Go loop", f.File, f.Line)
			}
			if !strings.Contains(f.Message, "on http-429 but not on http-503") {
				t.Errorf("message %q", f.Message)
			}
		}
	}
	if !found {
		t.Error("transient-not-retried did not fire on the code's 429-only classification")
	}
}

// TestIncident1FixedFromCode: the fixed Go code retries 429, 500 and 503
// twice with capped, jittered backoff; nothing is flagged.
func TestIncident1FixedFromCode(t *testing.T) {
	res := appChains(t, "examples/topology/incident1-fixed/retrylint.yaml")
	c := chainTo(t, res, "gemini")
	if c.Formula != "(2+1)×(2+1) = 9" {
		t.Errorf("gemini: formula %q, want (2+1)×(2+1) = 9", c.Formula)
	}
	if o := c.Origins(); len(o) != 2 || o[1] != "examples/topology/incident1-fixed/mapping/gemini/client.go:34" {
		t.Errorf("origins %v, want the workflow and the Go loop", o)
	}
	for _, f := range res.Findings {
		if f.Severity != model.Note {
			t.Errorf("finding in the fixed incident: %s:%d: %s: %s", f.File, f.Line, f.Rule, f.Message)
		}
	}
}

// TestAppLayerReachesThroughWrappers: a retry wrapper in one package
// around a client that retries in another multiplies; a function no loop
// reaches is one attempt; two loops that call one function one after the
// other give the worse, not the product.
func TestAppLayerReachesThroughWrappers(t *testing.T) {
	root := repoRoot(t)
	text, stderr, code := runCLI(t, root, "--fail-on", "never", "testdata/topology/code/retrylint.yaml")
	if code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, stderr)
	}
	golden(t, "code-app.txt", text)
	res := appChains(t, "testdata/topology/code/retrylint.yaml")
	for _, w := range []struct {
		target, formula string
		origins         []string
	}{
		{"model", "(3+1)×(2+1) = 12", []string{"testdata/topology/code/app/retry/retry.go:12", "testdata/topology/code/app/client/client.go:19"}},
		{"billing", "1", nil},
		{"reports", "(4+1) = 5", []string{"testdata/topology/code/app/report/report.go:39"}},
	} {
		c := chainTo(t, res, w.target)
		if c.Formula != w.formula {
			t.Errorf("%s: formula %q, want %q", w.target, c.Formula, w.formula)
		}
		if got := c.Origins(); strings.Join(got, " ") != strings.Join(w.origins, " ") {
			t.Errorf("%s: origins %v, want %v", w.target, got, w.origins)
		}
	}
	for _, f := range res.Findings {
		if f.Rule == "topology-code-drift" {
			t.Errorf("drift reported where the file states nothing by hand: %s", f.Message)
		}
	}
}

// TestTopologyCodeDrift: a topology file that disagrees with the code is
// reported with both locations, and the code's numbers are used; a call
// that agrees is not reported.
func TestTopologyCodeDrift(t *testing.T) {
	res := appChains(t, "testdata/topology/code/drift.topology.yaml")
	var drift []model.Finding
	for _, f := range res.Findings {
		if f.Rule == "topology-code-drift" {
			drift = append(drift, f)
		}
	}
	if len(drift) != 1 {
		t.Fatalf("%d drift findings, want 1 (the reports call agrees with the code): %+v", len(drift), drift)
	}
	f := drift[0]
	if f.Severity != model.Warning || f.File != "testdata/topology/code/drift.topology.yaml" || f.Line != 10 {
		t.Errorf("drift finding %s %s:%d, want a warning at the file's retries: line", f.Severity, f.File, f.Line)
	}
	for _, want := range []string{"testdata/topology/code/drift.topology.yaml:10:9", "testdata/topology/code/drift.topology.yaml:11:9",
		"testdata/topology/code/app/client/client.go:19:2", "retries 5 times", "the code retries 2 times", "[http-429, http-503]", "the code retries on [http-503]", "the code wins"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("drift message lacks %q: %s", want, f.Message)
		}
	}
	if c := chainTo(t, res, "model"); c.Formula != "(3+1)×(2+1) = 12" {
		t.Errorf("model: %q, want the code's (3+1)×(2+1) = 12", c.Formula)
	}
}

// TestAppLayerInputErrors: a func that matches nothing, a func without
// source:, a source that is no package and one that does not type-check
// (the Go error with its file:line:col) are input errors at their line.
func TestAppLayerInputErrors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"bad-nofunc.yaml", `testdata/topology/code/bad-nofunc.yaml:8:9: component worker: func "example.com/app/client.(*Client).Nothing": matches no function of ./app/...`},
		{"bad-nosource.yaml", "testdata/topology/code/bad-nosource.yaml:7:9: component worker: func: needs `source:` on the component"},
		{"bad-nopackage.yaml", `testdata/topology/code/bad-nopackage.yaml:5:5: component worker: source "./app/missing": `},
		{"broken/retrylint.yaml", `testdata/topology/code/broken/retrylint.yaml:5:5: component worker: source "./app/...": testdata/topology/code/broken/app/main.go:4:7: undefined: undefinedName`},
	} {
		t.Run(c.file, func(t *testing.T) {
			out, stderr, code := runCLI(t, repoRoot(t), "testdata/topology/code/"+c.file)
			if code != 2 || out != "" {
				t.Fatalf("exit %d, stdout %q; want 2 and nothing written", code, out)
			}
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q lacks %q", stderr, c.want)
			}
		})
	}
}

// TestReportBaseShowsGoRetryChange: raising a Go loop's retries from 3 to
// 5 changes the topology's worst case, and report --base says so.
func TestReportBaseShowsGoRetryChange(t *testing.T) {
	head := filepath.Join(asProjectRoot(t, filepath.Join(repoRoot(t), "testdata", "report", "goretries")), "head")
	r := runCmd(t, head, "report", "--code", "./app/...", "--topology", "retrylint.yaml", "--base", "../base", "--format", "markdown", "--fail-on", "never")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr: %s", r.code, r.stderr)
	}
	checkGolden(t, "goretries.md", r.stdout)
	if !strings.Contains(r.stdout, "**gemini: 16 → 24**") {
		t.Errorf("the report does not show gemini: 16 → 24:\n%s", r.stdout)
	}
}

// TestAppLayerByHost: a call without func: to an external with a url: is
// matched to the code's calls of URLs on that host; a host the code never
// names keeps what the file declares.
func TestAppLayerByHost(t *testing.T) {
	res := appChains(t, "testdata/topology/code/host.topology.yaml")
	for _, w := range []struct{ target, formula, origin string }{
		{"model-api", "(3+1)×(2+1) = 12", "testdata/topology/code/app/client/client.go:19"},
		{"reports", "(4+1) = 5", "testdata/topology/code/app/report/report.go:39"},
		{"elsewhere", "(2+1) = 3", "testdata/topology/code/host.topology.yaml:12"},
	} {
		c := chainTo(t, res, w.target)
		o := c.Origins()
		if c.Formula != w.formula || len(o) == 0 || o[len(o)-1] != w.origin {
			t.Errorf("%s: %s from %v, want %s with the last factor from %s", w.target, c.Formula, o, w.formula, w.origin)
		}
	}
	var drift []string
	for _, f := range res.Findings {
		if f.Rule == "topology-code-drift" {
			drift = append(drift, f.Message)
		}
	}
	if len(drift) != 1 || !strings.Contains(drift[0], "to reports") || !strings.Contains(drift[0], "report.go:39:2") {
		t.Errorf("drift findings %q, want one for reports naming report.go:39:2", drift)
	}
}

// TestVerboseListsCodeLayers: --verbose says which calls were read from
// code, loop by loop.
func TestVerboseListsCodeLayers(t *testing.T) {
	_, stderr, _ := runCLI(t, repoRoot(t), "--verbose", "--fail-on", "never", "testdata/topology/code/retrylint.yaml")
	for _, want := range []string{
		"testdata/topology/code/app/retry/retry.go:12:2: worker → model: read from code: 3 retries on any failure in retry.Do\n",
		"testdata/topology/code/app/client/client.go:19:2: worker → model: read from code: 2 retries on [http-503] in client.(*Client).Generate\n",
		"testdata/topology/code/retrylint.yaml:13:13: worker → billing: read from code: no retry loop reaches it (one attempt)\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("--verbose lacks %q:\n%s", want, stderr)
		}
	}
}

// TestServiceLayerFromCode: a cloudrun.service with source: is read like
// an app, and its code's layers multiply under a push subscription's
// redelivery.
func TestServiceLayerFromCode(t *testing.T) {
	res := appChains(t, "testdata/topology/code/service.topology.yaml")
	c := chainTo(t, res, "model")
	want := []string{"testdata/topology/code/service.topology.yaml:8", "testdata/topology/code/app/retry/retry.go:12", "testdata/topology/code/app/client/client.go:19"}
	if c.Formula != "(4+1)×(3+1)×(2+1) = 60" || strings.Join(c.Origins(), " ") != strings.Join(want, " ") {
		t.Errorf("model: %s from %v, want (4+1)×(3+1)×(2+1) = 60 from %v", c.Formula, c.Origins(), want)
	}
	if n := len(c.Factors); n != 3 || c.Factors[1].From != "worker" || c.Factors[2].From != "worker" {
		t.Errorf("factors %+v, want the delivery and the two nested loops of worker's call", c.Factors)
	}
}

// TestAppLayerCountFromFile: a loop bounded by a setting read at run time
// has no count in the code; the call's retries: gives it, without drift,
// and without one the worst case is unbounded.
func TestAppLayerCountFromFile(t *testing.T) {
	res := appChains(t, "testdata/topology/code/limits.topology.yaml")
	if c := chainTo(t, res, "status"); c.Formula != "(4+1) = 5" || strings.Join(c.Origins(), " ") != "testdata/topology/code/limits.topology.yaml:11" {
		t.Errorf("status: %s from %v, want (4+1) = 5 from the file's retries:", c.Formula, c.Origins())
	}
	if c := chainTo(t, res, "status-unset"); !c.Unbounded || strings.Join(c.Origins(), " ") != "testdata/topology/code/app/poll/poll.go:17" {
		t.Errorf("status-unset: %s from %v, want unbounded from the loop", c.Formula, c.Origins())
	}
	for _, f := range res.Findings {
		if f.Rule == "topology-code-drift" {
			t.Errorf("drift where the code has no count: %s", f.Message)
		}
	}
}

// TestAppLayerSourceBesideTheManifests: a topology file kept with the
// manifests names the app's code in a directory beside them, as the go
// command would load it from there.
func TestAppLayerSourceBesideTheManifests(t *testing.T) {
	res := appChains(t, "testdata/topology/code/outside/retrylint.yaml")
	if c := chainTo(t, res, "model"); c.Formula != "(3+1)×(2+1) = 12" {
		t.Errorf("model: %s, want (3+1)×(2+1) = 12 from ../app", c.Formula)
	}
}
