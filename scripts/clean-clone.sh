#!/usr/bin/env bash
# clean-clone.sh — check that a clone of the repository alone passes, as a
# new user would try it: the committed tree cloned into a temporary
# directory, empty module and build caches, no shared data beside it. It
# runs the README's install line (which must install retrylint alone), the
# quick start, with go run and with the installed retrylint, and the test
# command.
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

# The install line of the README (cmd/retrylint's install test checks it
# is this one), into a GOBIN of its own, which then holds retrylint alone.
install='go install ./cmd/retrylint'
grep -qxF "$install" README.md || { echo "clean-clone: README.md no longer shows: $install" >&2; exit 1; }
echo "clean-clone: $install"
GOBIN="$tmp/bin" $install
installed=$(ls "$tmp/bin")
if [ "$installed" != retrylint ]; then
	echo "clean-clone: $install installed: $installed (want retrylint alone)" >&2
	exit 1
fi
export PATH="$tmp/bin:$PATH"
retrylint version

# quickstart CMD runs the quick start with CMD and checks its findings.
quickstart() {
	echo "clean-clone: $*"
	set +e
	out="$("$@" 2>&1)"
	status=$?
	set -e
	# Findings on the payment client as it was: exit status 1, one a line,
	# file:line:col: severity: rule: message.
	if [ "$status" -ne 1 ] || ! grep -Eq '^examples/payment/payment.go:[0-9]+:[0-9]+: (error: )?fixed-sleep: ' <<<"$out"; then
		echo "clean-clone: the quick start exited $status:" >&2
		echo "$out" >&2
		exit 1
	fi
}
run='go run ./cmd/retrylint code ./examples/...'
grep -qF "$run" README.md || { echo "clean-clone: README.md no longer shows: $run" >&2; exit 1; }
quickstart $run
quickstart retrylint code ./examples/...

test='go test ./...'
grep -qF "$test" README.md || { echo "clean-clone: README.md no longer shows: $test" >&2; exit 1; }
echo "clean-clone: $test"
$test
echo "clean-clone: a clone alone passes"
