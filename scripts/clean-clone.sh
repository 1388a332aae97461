#!/usr/bin/env bash
# clean-clone.sh — check that a clone of the repository alone passes, as a
# new user would try it: the committed tree cloned into a temporary
# directory, empty module and build caches, no shared data beside it. It
# runs the README's quick start and its test command.
#
# Usage: scripts/clean-clone.sh          (from anywhere in the repository)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/retrylint-clone-XXXXXX")"
cleanup() {
	chmod -R u+w "$tmp" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

git clone --quiet --no-local "$root" "$tmp/retrylint"
cd "$tmp/retrylint"
export GOCACHE="$tmp/gocache" GOMODCACHE="$tmp/gomodcache" GOPATH="$tmp/gopath" GOFLAGS=-modcacherw
unset RETRYLINT_SHARED RETRYLINT_REQUIRE_SHARED GOWORK

run='go run ./cmd/retrylint code ./examples/...'
grep -qF "$run" README.md || { echo "clean-clone: README.md no longer shows: $run" >&2; exit 1; }
echo "clean-clone: $run"
set +e
out="$($run 2>&1)"
status=$?
set -e
# Findings on the payment client as it was: exit status 1, one a line.
if [ "$status" -ne 1 ] || ! grep -q '^examples/payment/payment.go:[0-9]*:[0-9]*: fixed-sleep: ' <<<"$out"; then
	echo "clean-clone: the quick start exited $status:" >&2
	echo "$out" >&2
	exit 1
fi

test='go test ./...'
grep -qF "$test" README.md || { echo "clean-clone: README.md no longer shows: $test" >&2; exit 1; }
echo "clean-clone: $test"
$test
echo "clean-clone: a clone alone passes"
