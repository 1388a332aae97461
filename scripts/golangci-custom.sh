#!/usr/bin/env bash
# Builds golangci-lint with retrylint's module plugin, the binary that
# "golangci-lint custom" makes from .custom-gcl.yml, without cloning
# golangci-lint's repository: a small main module requires golangci-lint
# from the Go module proxy, blank-imports the plugin as the generated
# plugins.go does, and replaces retrylint with this checkout. Then it checks
# that the binary reports the same findings as "retrylint code" on
# gclplugin/testdata/fixture, and validates the documented .golangci.yml
# and .custom-gcl.yml against the schemas golangci-lint ships.
#
#   scripts/golangci-custom.sh [DIR]   # the binary is left in DIR (default: removed)
#
# GOLANGCI_LINT_VERSION picks another golangci-lint v2 release.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
version=${GOLANGCI_LINT_VERSION:-v2.15.0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest=${1:-$work/bin}
mkdir -p "$dest" "$work/custom-gcl"
dest=$(cd "$dest" && pwd)

cd "$work/custom-gcl"
cat > go.mod <<MOD
module custom-gcl

go 1.26.0

require (
	github.com/golangci/golangci-lint/v2 $version
	github.com/retrylint/retrylint v0.0.0
)

replace github.com/retrylint/retrylint => $root
MOD

cat > main.go <<'SRC'
// Command custom-gcl is golangci-lint with retrylint's plugin.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/golangci/golangci-lint/v2/pkg/commands"
	"github.com/golangci/golangci-lint/v2/pkg/exitcodes"
)

func main() {
	info := commands.BuildInfo{Version: "custom", Commit: "?", Date: "(unknown)", GoVersion: "unknown"}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.GoVersion = bi.GoVersion
		for _, dep := range bi.Deps {
			if dep.Path == "github.com/golangci/golangci-lint/v2" {
				info.Version = dep.Version + "-custom-gcl"
			}
		}
	}
	if err := commands.Execute(info); err != nil {
		fmt.Fprintf(os.Stderr, "The command is terminated due to an error: %v\n", err)
		os.Exit(exitcodes.Failure)
	}
}
SRC

cat > plugins.go <<'SRC'
package main

import (
	_ "github.com/retrylint/retrylint/gclplugin"
)
SRC

echo "custom-gcl: resolving golangci-lint $version and its modules"
GOWORK=off go mod tidy
echo "custom-gcl: building"
GOWORK=off go build -trimpath -o "$dest/custom-gcl" .
"$dest/custom-gcl" version
golangci_dir=$(GOWORK=off go list -m -f '{{.Dir}}' github.com/golangci/golangci-lint/v2)

cd "$root"
GOWORK=off go build -o "$dest/retrylint" ./cmd/retrylint
echo "custom-gcl: comparing its findings with retrylint code on gclplugin/testdata/fixture,"
echo "custom-gcl: and the documented configurations with golangci-lint's schemas"
RETRYLINT_CUSTOM_GCL="$dest/custom-gcl" RETRYLINT_BIN="$dest/retrylint" RETRYLINT_GOLANGCI_DIR="$golangci_dir" GOWORK=off \
	go test -count=1 -run '^(TestCustomGolangciLintMatchesRetrylint|TestConfigsAgainstGolangciSchemas)$' -v ./gclplugin
