package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/retrylint/retrylint/model"
)

// pipelinesDir holds two environments, envs/prod and envs/stg, each a
// pipeline of its own (a topology file each) with the same component
// names: the pr-generator workflow and job of the shared corpus
// (google-gemini/gemini-cli, Apache-2.0), the job with maxRetries 2 in
// prod and 0 in stg.
func pipelinesDir() string {
	return filepath.Join(pkgDir, "testdata", "pipelines")
}

// TestPipelinesGolden holds every format of a run of the two environments
// to golden files (go test -update rewrites them): each finding and chain
// names its pipeline, and no component of one is mixed with the other's.
func TestPipelinesGolden(t *testing.T) {
	for _, format := range []string{"text", "json", "sarif", "markdown", "dot"} {
		t.Run(format, func(t *testing.T) {
			out, stderr, code := runCLI(t, asProjectRoot(t, pipelinesDir()), "--format", format, "envs")
			if code != 1 {
				t.Fatalf("exit %d, want 1 (prod's job retries); stderr %q", code, stderr)
			}
			golden(t, "pipelines-envs."+ext(format), out)
			switch format {
			case "json":
				var res model.Result
				if err := json.Unmarshal([]byte(out), &res); err != nil {
					t.Fatal(err)
				}
				worst := model.WorstCases(res.Chains)
				if w := worst[model.WorstKey{Pipeline: "envs/prod", Component: "pr-gen-worker"}]; w.String() != "3" {
					t.Errorf("prod's worker: %s, want 3", w)
				}
				if w := worst[model.WorstKey{Pipeline: "envs/stg", Component: "pr-gen-worker"}]; w.String() != "1" {
					t.Errorf("stg's worker: %s, want 1", w)
				}
				if len(res.Findings) != 1 || res.Findings[0].Pipeline != "envs/prod" {
					t.Errorf("findings %+v, want prod's job-max-retries", res.Findings)
				}
			case "sarif":
				inst, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
				if err != nil {
					t.Fatal(err)
				}
				if err := sarifSchema(t).Validate(inst); err != nil {
					t.Errorf("invalid SARIF: %v", err)
				}
				if !strings.Contains(out, `"pipeline": "envs/prod"`) || strings.Count(out, `"runs"`) != 1 {
					t.Errorf("want one run whose result names its pipeline:\n%s", out)
				}
			case "markdown":
				for _, want := range []string{"### Pipeline `envs/prod`\n", "### Pipeline `envs/stg`\n", "#### Event at `workflow`", "##### 🔴"} {
					if !strings.Contains(out, want) {
						t.Errorf("Markdown lacks %q:\n%s", want, out)
					}
				}
			case "dot":
				if strings.Count(out, "subgraph cluster_") != 2 {
					t.Errorf("want a cluster per pipeline:\n%s", out)
				}
			}
		})
	}
	// One environment alone is one pipeline: nothing names it.
	js, _, _ := runCLI(t, pipelinesDir(), "--format", "json", "envs/prod")
	if strings.Contains(js, `"pipeline"`) {
		t.Errorf("a run of one pipeline names it:\n%s", js)
	}
}

// copyTree copies the directory src, recursively, into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPipelinesBase: stg's job goes from maxRetries 0 to 1, prod's stays
// at 2. Both have a pr-gen-worker; the comparison has exactly one change,
// stg's, and names its pipeline.
func TestPipelinesBase(t *testing.T) {
	tmp := t.TempDir()
	base, head := filepath.Join(tmp, "base"), filepath.Join(tmp, "head")
	copyTree(t, pipelinesDir(), base)
	copyTree(t, pipelinesDir(), head)
	job := filepath.Join(head, "envs", "stg", "job.yaml")
	data, err := os.ReadFile(job)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, job, strings.Replace(string(data), "maxRetries: 0", "maxRetries: 1", 1))

	md := runCmd(t, head, "report", "--topology", "envs", "--base", "../base")
	if md.code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", md.code, md.stderr)
	}
	checkGolden(t, "pipelines-base.md", md.stdout)
	if n := strings.Count(md.stdout, "- **pr-gen-worker: "); n != 1 {
		t.Errorf("%d change lines for pr-gen-worker, want 1:\n%s", n, md.stdout)
	}
	if want := "- **pr-gen-worker: 1 → 2** in `envs/stg` — `(1+1) = 2` from workflow\n"; !strings.Contains(md.stdout, want) {
		t.Errorf("the report lacks %q:\n%s", want, md.stdout)
	}

	js := runCmd(t, head, "report", "--format", "json", "--topology", "envs", "--base", "../base")
	var res model.Result
	if err := json.Unmarshal([]byte(js.stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Changes == nil || len(res.Changes.Attempts) != 1 {
		t.Fatalf("changes %+v, want stg's worker only", res.Changes)
	}
	if a := res.Changes.Attempts[0]; a.Pipeline != "envs/stg" || a.Component != "pr-gen-worker" {
		t.Errorf("change %+v, want pr-gen-worker in envs/stg", a)
	}
	if len(res.Changes.New) != 1 || res.Changes.New[0].Pipeline != "envs/stg" || len(res.Changes.Fixed) != 0 {
		t.Errorf("new %+v, fixed %+v: want stg's job-max-retries new, nothing fixed", res.Changes.New, res.Changes.Fixed)
	}
}

// TestPipelinesKeepABaseline: a baseline written when prod was the only
// pipeline still accepts prod's finding once stg is a second pipeline, as
// the finding's file is in prod's directory.
func TestPipelinesKeepABaseline(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, pipelinesDir(), dir)
	if _, stderr, code := runCLI(t, dir, "--baseline", "baseline.json", "--write-baseline", "envs/prod"); code != 0 {
		t.Fatalf("--write-baseline: exit %d; stderr %q", code, stderr)
	}
	out, stderr, code := runCLI(t, dir, "--format", "json", "--baseline", "baseline.json", "envs")
	if code != 0 || strings.Contains(out, "job-max-retries") {
		t.Errorf("exit %d, want 0 with prod's finding accepted; stderr %q\n%s", code, stderr, out)
	}
}
