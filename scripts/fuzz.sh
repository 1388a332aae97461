#!/usr/bin/env bash
# fuzz.sh — run every fuzz target of the module for a short time each.
#
# Usage: scripts/fuzz.sh                 (20 s a target)
#        FUZZTIME=1m scripts/fuzz.sh     (any -fuzztime value)
#        scripts/fuzz.sh ./report        (only the targets of some packages)
#
# A failure stops the script with the fuzzer's report; the failing input is
# saved under the package's testdata/fuzz/ and replays in `go test` from
# then on.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-20s}"

if [ "$#" -gt 0 ]; then
	dirs=("$@")
else
	# Every package directory with a fuzz target, testdata modules aside.
	mapfile -t dirs < <(grep -rl --include='*_test.go' -E '^func Fuzz[A-Za-z0-9_]*\(' . |
		grep -v '/testdata/' | xargs -n1 dirname | sort -u)
fi

count=0
start=$SECONDS
for dir in "${dirs[@]}"; do
	mapfile -t targets < <(grep -h -o -E '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go | sed 's/^func //' | sort -u)
	for target in "${targets[@]}"; do
		echo "fuzz: $dir $target for $fuzztime"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$dir"
		count=$((count + 1))
	done
done
echo "fuzz: $count targets, no failure, $((SECONDS - start)) s"
