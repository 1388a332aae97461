package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// TestVersionAfterGoInstall publishes this checkout as v0.1.0 on a module
// proxy in a directory, installs retrylint from it with "go install
// ...@v0.1.0" as a user would, and runs "retrylint version": it must
// print the module's version, as it does in the JSON and SARIF reports.
func TestVersionAfterGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds retrylint from a module proxy")
	}
	const (
		path    = "github.com/retrylint/retrylint"
		version = "v0.1.0"
	)
	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(path), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromDir(zf, module.Version{Path: path, Version: version}, reportRoot); err != nil {
		t.Fatal(err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(reportRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": "2026-12-01T00:00:00Z"})
	for name, content := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": info,
		version + ".mod":  gomod,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	downloads := filepath.Join(strings.TrimSpace(string(cache)), "cache", "download")
	gobin, home := t.TempDir(), t.TempDir()
	env := append(os.Environ(),
		"GOBIN="+gobin,
		// This checkout comes from the directory, its dependencies from
		// the downloads of the module cache, which is a proxy too (checked
		// when they were downloaded, so no checksum database); the
		// installed modules go to a module cache of the test's own.
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(downloads),
		"GOMODCACHE="+filepath.Join(t.TempDir(), "mod"),
		"GOSUMDB=off", "GOFLAGS=-modcacherw", "GOWORK=off", "GOTOOLCHAIN=local",
	)
	install := runEnv(t, home, env, "go", "install", path+"/cmd/retrylint@"+version)
	if install.code != 0 {
		t.Fatalf("go install: exit %d\n%s", install.code, install.stderr)
	}
	got := runEnv(t, home, env, filepath.Join(gobin, "retrylint"), "version")
	if first, _, _ := strings.Cut(got.stdout, "\n"); first != "retrylint "+version {
		t.Errorf("retrylint version after go install prints %q, want %q\n%s", first, "retrylint "+version, got.stdout)
	}
	js := runEnv(t, home, env, filepath.Join(gobin, "retrylint"), "topology", "--format", "json", filepath.Join(reportRoot, "examples", "topology", "incident1-fixed"))
	if !strings.Contains(js.stdout, `"version": "`+version+`"`) {
		t.Errorf("the JSON report does not carry %s:\n%.300s", version, js.stdout)
	}
}

// runEnv runs name in dir with env.
func runEnv(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// TestGoInstallInstallsOnlyRetrylint lists the commands "go install ./..."
// of this repository would install, as pre-commit's golang hooks run it:
// retrylint alone. The helper programs of the scripts and measurements
// live in modules of their own and never reach a user's PATH.
func TestGoInstallInstallsOnlyRetrylint(t *testing.T) {
	list := runEnv(t, reportRoot, e2eEnv(), "go", "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./...")
	if list.code != 0 {
		t.Fatalf("go list ./...: exit %d\n%s", list.code, list.stderr)
	}
	got := strings.Fields(list.stdout)
	if want := []string{"github.com/retrylint/retrylint/cmd/retrylint"}; !slices.Equal(got, want) {
		t.Errorf("go install ./... installs %q, want only %q", got, want)
	}
}

// toolModules are the modules nested in this repository that hold the
// helper programs of scripts/ and eval/: outside "./..." of the main
// module, built by the scripts that use them.
var toolModules = []string{"eval", "scripts"}

// TestToolModulesBuildAndPass builds, vets and tests each tool module as
// the scripts build them, so that moving them out of the main module
// loses neither the programs nor their tests.
func TestToolModulesBuildAndPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool modules")
	}
	for _, dir := range toolModules {
		root := filepath.Join(reportRoot, dir)
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
			t.Errorf("%s: not a module of its own: %v", dir, err)
			continue
		}
		for _, args := range [][]string{{"vet", "./..."}, {"test", "-count=1", "./..."}} {
			if r := runEnv(t, root, e2eEnv(), "go", args...); r.code != 0 {
				t.Errorf("%s: go %s: exit %d\n%s%s", dir, strings.Join(args, " "), r.code, r.stdout, r.stderr)
			}
		}
	}
}

// readmeSection is the text of README.md's "## title" section.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(reportRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", title)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}

// readmeInstallLine is the command of the README's install block.
func readmeInstallLine(t *testing.T) string {
	t.Helper()
	_, block, ok := strings.Cut(readmeSection(t, "Install"), "```sh\n")
	if !ok {
		t.Fatal("README.md's Install section has no ```sh block")
	}
	block, _, _ = strings.Cut(block, "```")
	var lines []string
	for line := range strings.Lines(block) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if len(lines) != 1 {
		t.Fatalf("README.md's install block has %d commands, want one: %q", len(lines), lines)
	}
	return lines[0]
}

// TestReadmeInstallLineWorksFromAClone runs the README's install line as
// a user in a clone would, into an empty GOBIN: it must install retrylint
// alone, which then answers "retrylint version"; and it must be the line
// scripts/clean-clone.sh runs on a fresh clone, so that CI fails when it
// breaks.
func TestReadmeInstallLineWorksFromAClone(t *testing.T) {
	line := readmeInstallLine(t)
	if strings.Contains(line, "@") {
		t.Errorf("the README's install line %q needs a released version; give what works from a clone", line)
	}
	script, err := os.ReadFile(filepath.Join(reportRoot, "scripts", "clean-clone.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "\ninstall='"+line+"'\n") {
		t.Errorf("scripts/clean-clone.sh does not run the README's install line %q", line)
	}
	if testing.Short() {
		t.Skip("installs retrylint")
	}
	gobin := t.TempDir()
	args := strings.Fields(line)
	install := runEnv(t, reportRoot, append(e2eEnv(), "GOBIN="+gobin), args[0], args[1:]...)
	if install.code != 0 {
		t.Fatalf("%s: exit %d\n%s", line, install.code, install.stderr)
	}
	entries, _ := os.ReadDir(gobin)
	var installed []string
	for _, e := range entries {
		installed = append(installed, e.Name())
	}
	if !slices.Equal(installed, []string{"retrylint"}) {
		t.Errorf("%s installed %q, want retrylint alone", line, installed)
	}
	v := runEnv(t, t.TempDir(), e2eEnv(), filepath.Join(gobin, "retrylint"), "version")
	if v.code != 0 || !strings.HasPrefix(v.stdout, "retrylint ") {
		t.Errorf("retrylint version after %s: exit %d\n%s%s", line, v.code, v.stdout, v.stderr)
	}
}
