package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// integrationPages are the pages that tell how to run retrylint in other
// tools.
var integrationPages = []string{"README.md", "docs/ci.md", "docs/golangci-lint.md", "docs/nogo.md"}

// codeBlocks are the fenced blocks of page in the languages given, as
// "```lang" opens them.
func codeBlocks(t *testing.T, page string, langs ...string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(reportRoot, page))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```([a-z]*)\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		for _, l := range langs {
			if m[1] == l {
				out = append(out, m[2])
			}
		}
	}
	return out
}

// TestIntegrationsPinNoUnreleasedVersion: no command or configuration a
// user copies asks for a version of retrylint that is not released (the
// module proxy serves none yet), so each works from a clone today.
func TestIntegrationsPinNoUnreleasedVersion(t *testing.T) {
	unreleased := regexp.MustCompile(`retrylint(/cmd/retrylint)?@(latest|v0\.0\.[1-9]|v0\.[1-9]|v[1-9])|rev: v\d|version: v0\.`)
	for _, page := range integrationPages {
		for _, block := range codeBlocks(t, page, "yaml", "sh", "starlark") {
			if m := unreleased.FindString(block); m != "" {
				t.Errorf("%s: a block asks for an unreleased retrylint (%s):\n%s", page, m, block)
			}
		}
	}
	hooks, err := os.ReadFile(filepath.Join(reportRoot, ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if m := unreleased.FindString(string(hooks)); m != "" {
		t.Errorf(".pre-commit-hooks.yaml: its example asks for an unreleased retrylint (%s)", m)
	}
}

// TestActionFromAClone: docs/ci.md shows the action used from a clone of
// this repository in the workspace (uses: ./PATH), checked out with the
// workspace.
func TestActionFromAClone(t *testing.T) {
	local := false
	for _, block := range codeBlocks(t, "docs/ci.md", "yaml") {
		for _, m := range regexp.MustCompile(`(?m)^\s*- uses: \./(\S+)`).FindAllStringSubmatch(block, -1) {
			local = true
			if !strings.Contains(block, "submodules: true") {
				t.Errorf("docs/ci.md: the workflow uses ./%s but does not check out submodules", m[1])
			}
		}
	}
	if !local {
		t.Error("docs/ci.md: no workflow uses the action from a clone in the workspace (uses: ./PATH)")
	}
}

// preCommitConfig is a .pre-commit-config.yaml.
type preCommitConfig struct {
	Repos []struct {
		Repo  string `yaml:"repo"`
		Rev   string `yaml:"rev"`
		Hooks []hook `yaml:"hooks"`
	} `yaml:"repos"`
}

// TestPreCommitFromAClone: docs/ci.md shows pre-commit with this
// repository's hooks from a local clone, and hooks of the user's own
// (repo: local) that run an installed retrylint; those are run here as
// pre-commit would.
func TestPreCommitFromAClone(t *testing.T) {
	ids := hooks(t)
	var fromClone, local bool
	for _, block := range codeBlocks(t, "docs/ci.md", "yaml") {
		var cfg preCommitConfig
		if yaml.Unmarshal([]byte(block), &cfg) != nil {
			continue
		}
		for _, r := range cfg.Repos {
			switch {
			case r.Repo == "local":
				local = true
				for _, h := range r.Hooks {
					if h.Language != "system" || !strings.HasPrefix(h.Entry, "retrylint ") {
						t.Errorf("local hook %s: language %q entry %q, want system and retrylint", h.ID, h.Language, h.Entry)
					}
					checkLocalHook(t, h)
				}
			case strings.HasPrefix(r.Repo, "/") || strings.HasPrefix(r.Repo, "~") || strings.HasPrefix(r.Repo, "../"):
				fromClone = true
				for _, h := range r.Hooks {
					if _, ok := ids[h.ID]; !ok {
						t.Errorf("the clone's hook %s is not in .pre-commit-hooks.yaml", h.ID)
					}
				}
			}
		}
	}
	if !fromClone || !local {
		t.Errorf("docs/ci.md: pre-commit from a local clone %v, with repo: local %v; want both", fromClone, local)
	}
}

// checkLocalHook runs a documented repo: local hook on the e2e module or
// the incident examples, as pre-commit would.
func checkLocalHook(t *testing.T, h hook) {
	t.Helper()
	var r result
	switch {
	case strings.HasPrefix(h.Entry, "retrylint code"):
		dir := t.TempDir()
		bad, err := os.ReadFile(filepath.Join(e2eDir(t), "bad", "bad.go"))
		if err != nil {
			t.Fatal(err)
		}
		for name, content := range map[string][]byte{"go.mod": []byte("module example.com/app\n\ngo 1.22\n"), "bad/bad.go": bad} {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r = runHook(t, h, dir, "bad/bad.go")
	case strings.HasPrefix(h.Entry, "retrylint topology"):
		h.Args = []string{"incident1"}
		r = runHook(t, h, filepath.Join(reportRoot, "examples", "topology"), "incident1/mapping-job.yaml")
	default:
		t.Errorf("local hook %s runs %q", h.ID, h.Entry)
		return
	}
	if r.code != 1 || r.stdout == "" {
		t.Errorf("local hook %s: exit %d, want 1 with findings\n%s%s", h.ID, r.code, r.stdout, r.stderr)
	}
}

// TestGolangciPluginFromAClone: docs/golangci-lint.md shows a
// .custom-gcl.yml that builds the plugin from a local clone (path:).
func TestGolangciPluginFromAClone(t *testing.T) {
	found := false
	for _, block := range codeBlocks(t, "docs/golangci-lint.md", "yaml") {
		var cfg struct {
			Plugins []struct {
				Module, Import, Version, Path string
			} `yaml:"plugins"`
		}
		if yaml.Unmarshal([]byte(block), &cfg) != nil {
			continue
		}
		for _, p := range cfg.Plugins {
			if p.Module == "github.com/retrylint/retrylint" && p.Path != "" && p.Version == "" &&
				p.Import == "github.com/retrylint/retrylint/gclplugin" {
				found = true
			}
		}
	}
	if !found {
		t.Error("docs/golangci-lint.md: no .custom-gcl.yml with the plugin from a local path (path:, no version:)")
	}
}

// TestNogoDependencyFromAClone runs docs/nogo.md's commands that make
// retrylint a tool dependency of a module from a local clone, in a new
// module, the clone being this checkout; go tool retrylint then runs.
func TestNogoDependencyFromAClone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds retrylint as a tool dependency")
	}
	var commands []string
	for _, block := range codeBlocks(t, "docs/nogo.md", "sh") {
		if strings.Contains(block, "-replace=github.com/retrylint/retrylint=") {
			for line := range strings.Lines(block) {
				if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
					commands = append(commands, line)
				}
			}
		}
	}
	if len(commands) == 0 {
		t.Fatal("docs/nogo.md: no commands that take retrylint from a clone (go mod edit -replace=github.com/retrylint/retrylint=…)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/app\n\ngo 1.26.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The module's graph is retrylint's: its go.sum checks every module,
	// read from the module cache first, then from the proxy (a clean
	// clone's cache lacks the modules only other platforms build).
	sum, err := os.ReadFile(filepath.Join(reportRoot, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	proxy := os.Getenv("GOPROXY")
	if proxy == "" {
		proxy = "https://proxy.golang.org,direct"
	}
	proxy = "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(cache)), "cache", "download")) + "," + proxy
	env := append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=mod", "GOPROXY="+proxy)
	clone := regexp.MustCompile(`=github\.com/retrylint/retrylint=\S+`)
	for _, c := range commands {
		c = clone.ReplaceAllString(c, "=github.com/retrylint/retrylint="+reportRoot)
		args := strings.Fields(c)
		if r := runEnv(t, dir, env, args[0], args[1:]...); r.code != 0 {
			t.Fatalf("%s: exit %d\n%s%s", c, r.code, r.stdout, r.stderr)
		}
	}
	if r := runEnv(t, dir, env, "go", "tool", "retrylint", "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "retrylint ") {
		t.Errorf("go tool retrylint version: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
