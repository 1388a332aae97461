#!/usr/bin/env bash
# The retrylint action's set-up (action.yml), in two steps around
# actions/setup-go and actions/cache:
#
#   setup.sh go    whether to set up Go. The job's own Go is used when one
#                  is on PATH, so that the steps after the action keep it;
#                  actions/setup-go runs only when the go-version input
#                  names a version or no go is on PATH. Step outputs:
#                  setup-go (true or false) and go-version (the input, or
#                  the major.minor of retrylint's go.mod).
#   setup.sh key   the cache key of the retrylint binary: the runner's OS
#                  and architecture, the Go version that builds it, and a
#                  hash of what goes into it (Go sources, go.mod, go.sum,
#                  the rule pages it embeds). Step output: cache-key.
#
# Environment: INPUT_GO_VERSION; GITHUB_ACTION_PATH, the action's
# checkout (default: the directory above this script); the runner's
# GITHUB_OUTPUT, RUNNER_OS and RUNNER_ARCH.
set -euo pipefail

root=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}

# output NAME VALUE sets a step output.
output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
}

# sha256 is the command that prints the SHA-256 of files or of its input
# (macOS runners have shasum).
sha256=(sha256sum)
command -v sha256sum >/dev/null 2>&1 || sha256=(shasum -a 256)

# sources hashes the files the binary is built from, each with its name.
sources() {
	cd "$root"
	find . -name .git -prune -o -name testdata -prune -o -type f \
		\( -name '*.go' -o -name go.mod -o -name go.sum -o -path './docs/*' \) -print0 |
		LC_ALL=C sort -z | xargs -0 "${sha256[@]}" | "${sha256[@]}" | cut -d' ' -f1
}

case "${1:-}" in
go)
	version=${INPUT_GO_VERSION:-}
	if [ -n "$version" ]; then
		output setup-go true
	elif command -v go >/dev/null 2>&1; then
		echo "retrylint: building with the job's Go: $(go version)"
		output setup-go false
	else
		version=$(sed -n 's/^go \([0-9]*\.[0-9]*\).*/\1/p' "$root/go.mod")
		echo "retrylint: no go on PATH; setting up Go $version"
		output setup-go true
	fi
	output go-version "$version"
	;;
key)
	goversion=$(cd "$root" && GOWORK=off GOFLAGS= go env GOVERSION)
	output cache-key "retrylint-${RUNNER_OS:-$(uname -s)}-${RUNNER_ARCH:-$(uname -m)}-$goversion-$(sources)"
	;;
*)
	echo "setup.sh: want go or key, got ${1:-nothing}" >&2
	exit 2
	;;
esac
