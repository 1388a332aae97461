package topology_test

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/shareddata"
	"github.com/retrylint/retrylint/topology"
)

// Files an ordinary repository holds beside its manifests. None is a
// manifest; a directory walk must skip each and say why.
var notManifests = map[string]struct{ src, why string }{
	// A Helm chart template: a Job, but rendered, not read.
	"chart/templates/job.yaml": {"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ include \"app.fullname\" . }}\nspec:\n  backoffLimit: {{ .Values.backoffLimit }}\n", topology.SkipTemplate},
	"chart/values.yaml":        {"backoffLimit: 2\nimage: {repository: app, tag: latest}\n", topology.SkipUnknown},
	// A CI configuration.
	".ci/pipeline.yml":                {"", ""}, // hidden: never read
	"ci/cloudbuild.yaml":              {"steps:\n  - name: gcr.io/cloud-builders/docker\n    args: ['build', '-t', 'app', '.']\n", topology.SkipUnknown},
	"ci/actions.yml":                  {"on: [push]\njobs:\n  test:\n    steps:\n      - run: go test ./...\n        env: {A: b: c}\n", topology.SkipNotYAML},
	"monitoring/log-metric.yaml":      {"filter: resource.type=\"cloud_run_job\" AND severity>=ERROR\nmetricDescriptor:\n  metricKind: DELTA\n  valueType: INT64\n", topology.SkipUnknown},
	"docs/snippet.yaml":               {"# an excerpt from the docs\n  retries: 3\n backoff: 2s\n", topology.SkipNotYAML},
	"tsconfig.json":                   {"{\n  // comments are not JSON\n  \"compilerOptions\": {\"strict\": true},\n}\n", topology.SkipNotYAML},
	"terraform/providers/versions.tf": {"terraform {\n  required_version = \">= 1.5\"\n}\n", topology.SkipTerraform},
	// A Kubernetes manifest of a kind no retry layer is, indented wrongly
	// (as a GKE sample's Gateway is): not a manifest retrylint reads.
	"gke/gateway.yaml": {"apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata:\n  name: llm-gateway\nspec:\n      gatewayClassName: gke-l7\n      listeners:\n      -   name: http\n        protocol: HTTP\n", topology.SkipNotYAML},
}

// mixedRepo writes a repository tree of real manifests from the corpus and
// the everyday files above.
func mixedRepo(t *testing.T) string {
	t.Helper()
	corpus := shareddata.Path(t, "corpus/gcp")
	dir := t.TempDir()
	for _, f := range []string{"cloudrun/gem-pr-generator-job.yaml", "workflows/gem-pr-generator-workflow.yaml",
		"workflows/wfs-error_retry.workflows.yaml", "pubsub/kcc-pubsubsubscription-basic.yaml"} {
		src, err := os.ReadFile(filepath.Join(corpus, f))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, "deploy/"+f, string(src))
	}
	for name, f := range notManifests {
		write(t, dir, name, f.src)
	}
	return dir
}

func TestWalkSkipsWhatIsNotAManifest(t *testing.T) {
	dir := mixedRepo(t)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("a repository with Helm templates, CI configs and broken snippets: %v", err)
	}
	for _, c := range []string{"pr-gen-job", "gem-pr-generator-workflow", "wfs-error_retry", "pubsubsubscription-sample-basic"} {
		if g.Component(c) == nil {
			t.Errorf("manifest %s not loaded; components %v", c, names(g))
		}
	}
	got := map[string]string{}
	for _, s := range g.Skipped {
		got[s.File] = s.Why
	}
	var want []string
	for name, f := range notManifests {
		if f.why == "" {
			continue
		}
		want = append(want, name)
		if got[name] != f.why {
			t.Errorf("%s: skipped as %q, want %q", name, got[name], f.why)
		}
	}
	if len(got) != len(want) {
		sort.Strings(want)
		t.Errorf("skipped %v, want exactly %v", got, want)
	}
}

func TestWalkFailsOnABrokenManifest(t *testing.T) {
	cases := []struct{ name, src, want string }{
		// A Kubernetes Job with a tab in its indentation.
		{"k8s/job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: nightly\nspec:\n\tbackoffLimit: 2\n", "k8s/job.yaml:6:1: invalid YAML"},
		// A workflow with an unquoted expression holding ": " that cannot be repaired.
		{"wf/main.yaml", "main:\n  steps:\n    - a:\n        call: http.get\n        args: {url: https://x: y}\n", "wf/main.yaml:5:15: invalid YAML"},
		// A step list: the Workflows shape without main:.
		{"wf/flat.yaml", "- get:\n    call: http.get\n    args:\n      url: https://example.com\n     result: r\n", "wf/flat.yaml:5:6: invalid YAML"},
		// A known kind that parses, with a wrong field.
		{"run/job.yaml", strings.Replace(jobV1, "maxRetries: 2", "maxRetries: many", 1), "run/job.yaml:11:23: maxRetries: expected an integer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := mixedRepo(t)
			write(t, dir, c.name, c.src)
			_, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
			var ie *topology.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v, want an input error", err)
			}
			if !strings.HasPrefix(ie.Error(), c.want) {
				t.Errorf("error %q, want prefix %q", ie.Error(), c.want)
			}
			if !strings.Contains(ie.Error(), "`ignore:` in .retrylint.yaml") {
				t.Errorf("error %q does not say how to leave the file out", ie.Error())
			}
		})
	}
}

func TestNamedFilesAreAlwaysChecked(t *testing.T) {
	dir := mixedRepo(t)
	for name := range map[string]bool{"docs/snippet.yaml": true, "ci/actions.yml": true} {
		_, err := topology.Load([]string{filepath.Join(dir, name)}, topology.Options{WorkDir: dir})
		var ie *topology.InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(ie.Error(), name+":") {
			t.Errorf("%s named on the command line: error %v, want an input error at the file", name, err)
		}
	}
}

// A lock file or data dump over the size cap met in a walk is not a
// manifest: it is skipped and counted. One shaped like a manifest, or one
// named on the command line, still fails the run.
func TestWalkSkipsLargeFilesThatAreNotManifests(t *testing.T) {
	const max = 16000
	lock := "{\n  \"name\": \"site\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n" +
		strings.Repeat("    \"node_modules/x\": {\"version\": \"1.0.0\"},\n", 500) + "    \"\": {}\n  }\n}\n"
	bigJob := jobV1 + strings.Repeat("# padding\n", 2000)
	opts := func(dir string) topology.Options { return topology.Options{WorkDir: dir, MaxFileSize: max} }

	dir := mixedRepo(t)
	write(t, dir, "site/package-lock.json", lock)
	g, err := topology.Load([]string{dir}, opts(dir))
	if err != nil {
		t.Fatalf("a walk over a large package-lock.json: %v", err)
	}
	skipped := map[string]string{}
	for _, s := range g.Skipped {
		skipped[s.File] = s.Why
	}
	if skipped["site/package-lock.json"] != topology.SkipTooLarge {
		t.Errorf("package-lock.json skipped as %q, want %q", skipped["site/package-lock.json"], topology.SkipTooLarge)
	}
	if g.Component("pr-gen-job") == nil {
		t.Errorf("the manifests beside it were not loaded: %v", names(g))
	}

	if _, err := topology.Load([]string{filepath.Join(dir, "site/package-lock.json")}, opts(dir)); err == nil || !strings.Contains(err.Error(), "larger than 16000 bytes") {
		t.Errorf("package-lock.json named: error %v, want the size cap", err)
	}

	write(t, dir, "run/big-job.yaml", bigJob)
	_, err = topology.Load([]string{dir}, opts(dir))
	if err == nil || !strings.HasPrefix(err.Error(), "run/big-job.yaml: file is larger than 16000 bytes") ||
		!strings.Contains(err.Error(), "`ignore:` in .retrylint.yaml") {
		t.Errorf("a large Cloud Run job in a walk: error %v, want the size cap at the file and how to ignore it", err)
	}
}

// A .tf file met in a walk that does not parse is skipped unless it is
// recognisably Terraform of a retry layer: generated documentation with
// Markdown fences around its HCL (as Config Connector's resource samples
// are), or broken HCL of resources retrylint does not read. A broken job
// definition fails the run at its place; a named file is always checked.
func TestWalkSkipsTerraformThatIsNotAModule(t *testing.T) {
	const fenced = "/**\n * Copyright 2022 Google LLC\n */\n\n```hcl\nresource \"google_cloudfunctions2_function\" \"function\" {\n  name = \"function-v2\"\n}\n```\n"
	const brokenBucket = "resource \"google_storage_bucket\" \"b\" {\n  name = \"b\"\n  location = \n}\n"
	const brokenJob = "resource \"google_cloud_run_v2_job\" \"j\" {\n  name = \"j\"\n  template {\n    template {\n      max_retries = \n    }\n  }\n}\n"
	dir := mixedRepo(t)
	write(t, dir, "samples/CloudFunctions2-basic/main.tf", fenced)
	write(t, dir, "infra/storage/main.tf", brokenBucket)
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("a walk over a fenced sample and broken storage HCL: %v", err)
	}
	skipped := map[string]string{}
	for _, s := range g.Skipped {
		skipped[s.File] = s.Why
	}
	for _, f := range []string{"samples/CloudFunctions2-basic/main.tf", "infra/storage/main.tf"} {
		if skipped[f] != topology.SkipNotTerraform {
			t.Errorf("%s skipped as %q, want %q", f, skipped[f], topology.SkipNotTerraform)
		}
	}
	if g.Component("pr-gen-job") == nil {
		t.Errorf("the manifests beside them were not loaded: %v", names(g))
	}

	_, err = topology.Load([]string{filepath.Join(dir, "samples/CloudFunctions2-basic/main.tf")}, topology.Options{WorkDir: dir})
	if err == nil || !strings.HasPrefix(err.Error(), "samples/CloudFunctions2-basic/main.tf:5:1:") {
		t.Errorf("the fenced sample named: error %v, want one at 5:1", err)
	}

	write(t, dir, "infra/jobs/main.tf", brokenJob)
	_, err = topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err == nil || !strings.HasPrefix(err.Error(), "infra/jobs/main.tf:5:21:") || !strings.Contains(err.Error(), "`ignore:` in .retrylint.yaml") {
		t.Errorf("a broken Cloud Run job in a walk: error %v, want one at infra/jobs/main.tf:5:21 saying how to ignore it", err)
	}
}

// A patch a kustomization applies holds only what it changes, so it is no
// Job of its own: a walk skips it (as GKE's gke-a100-jax sample patches
// its Job's tolerations), and the Job it patches is read once. A Job
// created from metadata.generateName is read under that prefix.
func TestWalkSkipsKustomizePatches(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k/job.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: trainer\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      containers: [{name: w, image: w}]\n      restartPolicy: Never\n")
	write(t, dir, "k/job-patch.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: trainer\nspec:\n  template:\n    spec:\n      tolerations: [{key: nvidia.com/gpu, operator: Exists}]\n")
	write(t, dir, "k/strategic.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: trainer\nspec:\n  backoffLimit: 4\n")
	write(t, dir, "k/kustomization.yaml", "resources: [job.yaml]\npatches:\n- path: job-patch.yaml\n- patch: |-\n    - op: replace\n      path: /spec/completions\n      value: 32\n  target: {kind: Job}\npatchesStrategicMerge:\n- strategic.yaml\n")
	write(t, dir, "q/job-team-a.yaml", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  namespace: team-a\n  generateName: sample-job-team-a-\nspec:\n  backoffLimit: 0\n  template:\n    spec:\n      containers: [{name: w, image: w}]\n      restartPolicy: Never\n")
	g, err := topology.Load([]string{dir}, topology.Options{WorkDir: dir})
	if err != nil {
		t.Fatalf("a kustomization with a patch of its Job: %v", err)
	}
	skipped := map[string]string{}
	for _, s := range g.Skipped {
		skipped[s.File] = s.Why
	}
	for _, f := range []string{"k/job-patch.yaml", "k/strategic.yaml"} {
		if skipped[f] != topology.SkipPatch {
			t.Errorf("%s skipped as %q, want %q", f, skipped[f], topology.SkipPatch)
		}
	}
	if c := g.Component("trainer"); c == nil || c.Job == nil || c.Job.MaxRetries != 0 {
		t.Errorf("the patched Job is not read from job.yaml: %+v", c)
	}
	if g.Component("sample-job-team-a-") == nil {
		t.Errorf("the Job named by generateName is not read: %v", names(g))
	}
	// Named on the command line, a patch is read like any file.
	if _, err := topology.Load([]string{filepath.Join(dir, "k/job-patch.yaml")}, topology.Options{WorkDir: dir}); err != nil {
		t.Errorf("the patch named: %v", err)
	}
}
