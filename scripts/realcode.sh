#!/usr/bin/env bash
# realcode.sh — measure retrylint on real retry loops and look-alikes in
# public Go repositories, labelled by hand in eval/realcode/labels.tsv.
#
# It builds retrylint from this repository, runs "retrylint code --format json
# ./..." (or, with --vet, go vet -vettool=retrylint -json) in every module
# that holds a labelled file, and prints per repository, per rule and overall
# the true positives, false positives (findings inside a labelled loop that the
# labels do not expect), false negatives, precision and recall. Findings
# outside every labelled loop are written to outside.tsv for review.
#
# Usage: scripts/realcode.sh [--src DIR] [--mirrors DIR] [--out DIR]
#                            [--vet] [--both] [--labelled] [--repos a/b,c/d]
#                            [--cached] [--rev REV]
#
#   --src DIR      checkouts, one directory per repository named after it
#                  (containerd, etcd, ...); default /work/realcode-src
#   --mirrors DIR  bare mirrors laid out as DIR/owner+name/repo; a repository
#                  missing from --src is extracted from its mirror at the
#                  labelled commit
#   --out DIR      where to write the raw findings, details.tsv (TP, FP, FN)
#                  and outside.tsv; default a new temporary directory
#   --vet          run the analyzers through go vet -vettool instead
#   --both         run retrylint code and go vet -vettool, print both
#   --labelled     analyse only the packages of labelled files, not ./...
#   --repos LIST   measure only these repositories
#   --cached       with --out of an earlier run: reuse its findings and only
#                  score again (after editing the labels)
#   --rev REV      measure retrylint as it was at git revision REV (a round's
#                  first look: the commit before its fixes), with the labels
#                  of the working tree
#
# It needs the repositories' modules (the module proxy, or vendor/) and takes
# minutes per large repository, so it is not part of the tests or CI.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
src=/work/realcode-src
mirrors=""
out=""
mode=code
pkgs=all
repos=""
cached=""
rev=""
while [ $# -gt 0 ]; do
	case "$1" in
	--src) src=$2; shift 2 ;;
	--mirrors) mirrors=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--vet) mode=vet; shift ;;
	--both) mode=both; shift ;;
	--labelled) pkgs=labelled; shift ;;
	--repos) repos=$2; shift 2 ;;
	--cached) cached=-cached; shift ;;
	--rev) rev=$2; shift 2 ;;
	-h | --help) sed -n '2,34p' "$0"; exit 0 ;;
	*) echo "realcode.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done

bin=$(mktemp -d)
trap 'if [ -n "$rev" ]; then git -C "$repo" worktree remove --force "$bin/rev" 2>/dev/null || true; git -C "$repo" worktree prune; fi; rm -rf "$bin"' EXIT
build=$repo
if [ -n "$rev" ]; then
	git -C "$repo" worktree add --detach "$bin/rev" "$rev" >/dev/null
	build=$bin/rev
fi
(cd "$build" && go build -o "$bin/retrylint" ./cmd/retrylint)
(cd "$repo/eval" && go build -o "$bin/realcode" ./realcode) # eval/ is a module of its own
out=${out:-$(mktemp -d -t realcode-XXXXXX)}

measure() { # measure SUBDIR [-vet]
	"$bin/realcode" -labels "$repo/eval/realcode/labels.tsv" -src "$src" \
		${mirrors:+-mirrors "$mirrors"} -retrylint "$bin/retrylint" \
		-pkgs "$pkgs" ${repos:+-repos "$repos"} ${cached} -out "$out/$1" "${@:2}"
}

case $mode in
code) measure code ;;
vet) measure vet -vet ;;
both)
	measure code
	echo
	measure vet -vet
	echo
	echo "findings only one of the two reported:"
	diff <(cut -f1-5 "$out/code/details.tsv" "$out/code/outside.tsv" | grep -v '^outcome' | sort) \
		<(cut -f1-5 "$out/vet/details.tsv" "$out/vet/outside.tsv" | grep -v '^outcome' | sort) |
		grep '^[<>]' | sed 's/^</code:/; s/^>/vet: /' || echo "  none"
	;;
esac
