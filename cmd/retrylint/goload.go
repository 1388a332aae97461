package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
)

// inModule reports whether dir is inside a Go module or workspace: it or
// a directory above it has a go.mod or a go.work. In GOPATH mode
// (GO111MODULE=off) every directory is.
func inModule(dir string) bool {
	if os.Getenv("GO111MODULE") == "off" {
		return true
	}
	for {
		for _, name := range []string{"go.mod", "go.work"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
				return true
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return false
		}
		dir = up
	}
}

// noModuleError says that dir is in no Go module, the reason the go
// command gave no packages.
func noModuleError(dir string) error {
	return fmt.Errorf("no go.mod in %s or any directory above it: retrylint code reads the packages of a Go module; run it in the module, or create one with go mod init", dir)
}

// goCommandError is the error of a go command that failed as a whole, as
// the go command said it, without go/packages' wrapping ("err: exit
// status 1: stderr: ...") and trailing newline.
func goCommandError(err error) error {
	msg := err.Error()
	if _, stderr, ok := strings.Cut(msg, "stderr: "); ok && strings.TrimSpace(stderr) != "" {
		msg = stderr
	}
	return errors.New(strings.TrimSpace(msg))
}

// missingDirectory reports whether the list error e of the package named
// by pattern comes of a directory the pattern names (relative to dir)
// that does not exist; go list says so in several ways, some of them
// about modules.
func missingDirectory(pattern string, e packages.Error, dir string) bool {
	if e.Kind != packages.ListError {
		return false
	}
	if strings.HasSuffix(e.Msg, ": directory not found") || strings.HasSuffix(e.Msg, ": no such file or directory") {
		return true
	}
	path := strings.TrimSuffix(strings.TrimSuffix(pattern, "..."), "/")
	if !filepath.IsAbs(path) && path != "." && path != ".." && !strings.HasPrefix(path, "./") && !strings.HasPrefix(path, "../") {
		return false // an import path, not a directory
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// mayNeedTags reports whether an error of pkgs may come from build tags or
// a platform the run was not given: a parse or type error, or files that
// build constraints exclude. A directory that does not exist may not.
func mayNeedTags(pkgs []*packages.Package) bool {
	found := false
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			if e.Kind != packages.ListError || strings.Contains(e.Msg, "build constraints exclude") {
				found = true
			}
		}
	})
	return found
}
