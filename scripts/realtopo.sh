#!/usr/bin/env bash
# realtopo.sh — run retrylint topology over the real public repositories of
# eval/realtopo/repos.tsv and compare each run's exit status and findings
# (counted by rule) with the verdict reviewed for it.
#
# Usage: scripts/realtopo.sh [--src DIR] [--mirrors DIR]
#
#   --src DIR      checkouts, one directory a repository (owner+name);
#                  default /work/realtopo-src
#   --mirrors DIR  bare mirrors DIR/owner+name/repo; a repository missing
#                  from --src is extracted from its mirror at the listed
#                  commit; default /work/.mirror
#
# It needs the repositories, so it is not part of the tests or CI.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
src=/work/realtopo-src
mirrors=/work/.mirror
while [ $# -gt 0 ]; do
	case "$1" in
	--src) src=$2; shift 2 ;;
	--mirrors) mirrors=$2; shift 2 ;;
	-h | --help) sed -n '2,14p' "$0"; exit 0 ;;
	*) echo "realtopo.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$repo" && go build -o "$bin/retrylint" ./cmd/retrylint)
(cd "$repo/eval" && go build -o "$bin/realtopo" ./realtopo) # eval/ is a module of its own
"$bin/realtopo" -repos "$repo/eval/realtopo/repos.tsv" -src "$src" -mirrors "$mirrors" -retrylint "$bin/retrylint"
