#!/usr/bin/env bash
# bench-vet.sh — time "retrylint code ./..." against "go vet ./..." on the same
# large module and print the ratio. SPEC §8: retrylint code must cost no more
# than go vet on the same module.
#
# The module is golang.org/x/tools at the version retrylint itself requires,
# copied from the module cache (read-only) into a temporary directory. Each
# command runs once to warm the caches, then RUNS times (default 3); the
# median wall time is compared. Peak RSS comes from /usr/bin/time -v when it
# is installed.
#
# Usage: scripts/bench-vet.sh            (from anywhere in the repository)
#        RUNS=5 scripts/bench-vet.sh
#        MODULE=/path/to/containerd scripts/bench-vet.sh   (another module,
#        copied likewise; its dependencies come from the module proxy)
#
# go vet caches the result of every package it has checked, keyed by the
# analysis tool, so a warm "go vet ./..." mostly replays its cache. The script
# therefore measures go vet twice: as a developer re-running it sees it
# (cached), and analysing every package again (a new tool ID on every run
# misses the result cache while compiled dependencies stay cached). The second
# is the work retrylint code does on every run: type-check the packages and
# analyse them. It also times go vet -vettool=retrylint, the same analyzers as
# retrylint code run by go vet's driver, uncached likewise, and the floor of
# that path: go vet -vettool with one analyzer that does nothing
# (scripts/noopvet), uncached the same way, and a second floor whose no-op
# analyzer declares a fact type (scripts/noopfactsvet): with facts, go vet
# type-checks every dependency from source, the standard library too, for
# any tool.
#
# The bars (issue 8): retrylint code at most 0.25 of go vet not cached, and
# go vet -vettool=retrylint at most 1.10 of the no-op floor.
set -euo pipefail

runs=${RUNS:-3}
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if [ -n "${MODULE:-}" ]; then
	src=$(cd "$MODULE" && pwd)
	name=$(cd "$src" && go list -m)
else
	version=$(go list -m -f '{{.Version}}' golang.org/x/tools)
	src=$(go env GOMODCACHE)/golang.org/x/tools@$version
	if [ ! -d "$src" ]; then
		go mod download golang.org/x/tools
	fi
	name=golang.org/x/tools@$version
fi

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp -R "$src" "$work/tools"
chmod -R u+w "$work/tools"
go build -o "$work/retrylint" ./cmd/retrylint
# The no-op vet tools are a module of their own (scripts/go.mod), outside
# the main module's ./..., so that "go install ./..." installs retrylint alone.
(cd scripts && go build -o "$work/noopvet" ./noopvet && go build -o "$work/noopfactsvet" ./noopfactsvet)

export GOWORK=off GOFLAGS=-mod=mod
cd "$work/tools"
go mod download # the module's own dependencies, once
echo "module: $name ($(go list ./... | wc -l) packages), $(go version | cut -d' ' -f3), $(nproc) CPUs, $runs runs"

timer=()
if [ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1; then
	timer=(/usr/bin/time -v -o "$work/time.out")
fi

now() {
	if [ -n "${EPOCHREALTIME:-}" ]; then echo "$EPOCHREALTIME"; else date +%s.%N; fi
}

# measure CMD... runs CMD once to warm up and then $runs times. It sets
# median to the median wall time in seconds and peak to the largest peak
# RSS in MiB ("n/a" without /usr/bin/time -v).
measure() {
	"$@" >/dev/null 2>&1 || true
	local times=() kb=0 start end code
	for _ in $(seq "$runs"); do
		start=$(now)
		code=0
		"${timer[@]}" "$@" >/dev/null 2>"$work/stderr" || code=$?
		end=$(now)
		# Exit status 1 is findings; anything else is a broken run, not a measurement.
		if [ "$code" -gt 1 ]; then
			echo "bench-vet: $* exited $code:" >&2
			head -20 "$work/stderr" >&2
			exit 1
		fi
		times+=("$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}')")
		if [ ${#timer[@]} -gt 0 ]; then
			local k
			k=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.out")
			[ "$k" -gt "$kb" ] && kb=$k
		fi
	done
	median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
	peak="n/a"
	[ ${#timer[@]} -gt 0 ] && peak="$((kb / 1024)) MiB"
	return 0
}

# A go vet wrapper that misses the result cache on every run: go vet keys
# its cache by the tool's "-V=full" answer, so each run gets a tool that
# answers with a new build ID. For retrylint (go/analysis's unitchecker,
# whose ID is the hash of the executable) a copy with random bytes appended
# does it; the toolchain's vet answers with the Go version only, so it is
# wrapped in a script that answers -V=full itself and runs vet for the rest.
cat >"$work/vet-tool" <<SH
#!/bin/sh
if [ "\$1" = -V=full ]; then
	echo "vet version devel comments-go-here buildID=\$(cat "$work/vet-id")"
	exit 0
fi
exec "$(go env GOTOOLDIR)/vet" "\$@"
SH
cat >"$work/vet-uncached" <<SH
#!/bin/sh
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$work/vet-id"
exec go vet -vettool="$work/vet-tool" ./...
SH
cat >"$work/retrylint-vet-uncached" <<SH
#!/bin/sh
cp "$work/retrylint" "$work/retrylint-tool" && head -c 16 /dev/urandom >>"$work/retrylint-tool"
exec go vet -vettool="$work/retrylint-tool" ./...
SH
cat >"$work/noop-vet-uncached" <<SH
#!/bin/sh
cp "$work/noopvet" "$work/noopvet-tool" && head -c 16 /dev/urandom >>"$work/noopvet-tool"
exec go vet -vettool="$work/noopvet-tool" ./...
SH
cat >"$work/noopfacts-vet-uncached" <<SH
#!/bin/sh
cp "$work/noopfactsvet" "$work/noopfactsvet-tool" && head -c 16 /dev/urandom >>"$work/noopfactsvet-tool"
exec go vet -vettool="$work/noopfactsvet-tool" ./...
SH
chmod +x "$work/vet-tool" "$work/vet-uncached" "$work/retrylint-vet-uncached" "$work/noop-vet-uncached" "$work/noopfacts-vet-uncached"

measure "$work/retrylint" code --fail-on never ./...
lint_s=$median lint_mb=$peak
measure go vet ./...
vet_s=$median vet_mb=$peak
measure "$work/vet-uncached"
fresh_s=$median fresh_mb=$peak
measure "$work/retrylint-vet-uncached"
vettool_s=$median vettool_mb=$peak
measure "$work/noop-vet-uncached"
noop_s=$median noop_mb=$peak
measure "$work/noopfacts-vet-uncached"
noopf_s=$median noopf_mb=$peak

printf '%-46s %9s %10s\n' command "median s" "peak RSS"
printf '%-46s %9.2f %10s\n' "retrylint code ./..." "$lint_s" "$lint_mb"
printf '%-46s %9.2f %10s\n' "go vet ./... (analysis not cached)" "$fresh_s" "$fresh_mb"
printf '%-46s %9.2f %10s\n' "go vet ./... (cached results)" "$vet_s" "$vet_mb"
printf '%-46s %9.2f %10s\n' "go vet -vettool=retrylint ./... (not cached)" "$vettool_s" "$vettool_mb"
printf '%-46s %9.2f %10s\n' "go vet -vettool=noop ./... (not cached)" "$noop_s" "$noop_mb"
printf '%-46s %9.2f %10s\n' "go vet -vettool=noop+facts ./... (not cached)" "$noopf_s" "$noopf_mb"
awk -v l="$lint_s" -v f="$fresh_s" -v v="$vet_s" -v t="$vettool_s" -v n="$noop_s" -v nf="$noopf_s" 'BEGIN {
	printf "ratio retrylint code / go vet, not cached:        %.2f  (bar: 0.25)\n", l / f
	printf "ratio retrylint code / go vet, cached:            %.2f\n", l / v
	printf "ratio go vet -vettool=retrylint / no-op vettool:  %.2f  (bar: 1.10)\n", t / n
	printf "ratio go vet -vettool=retrylint / no-op + facts:  %.2f\n", t / nf
}'
