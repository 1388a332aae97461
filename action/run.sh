#!/usr/bin/env bash
# The retrylint action's step (action.yml): runs "retrylint report" as the
# inputs say, prints the report in the chosen format to the log, writes the
# SARIF report for code scanning when asked, and on a pull request posts the
# Markdown report as one comment, found again on later runs by a hidden
# marker and updated in place. It exits 0 and leaves retrylint's exit status
# in the step output exit-code, so that the SARIF upload runs before the
# gate fails the job; it exits non-zero itself only when it cannot do its
# work (an unreadable event file). A comment that cannot be posted is a
# warning.
#
# Environment: the INPUT_* variables of action.yml; RETRYLINT, the binary;
# GH, the GitHub CLI (default gh); and the runner's GITHUB_EVENT_NAME,
# GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_SERVER_URL, GITHUB_OUTPUT and
# RUNNER_TEMP.
set -euo pipefail

retrylint=${RETRYLINT:-retrylint}
gh=${GH:-gh}
out=${RUNNER_TEMP:-/tmp}/retrylint-report
mkdir -p "$out"

# output NAME VALUE sets a step output.
output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
}

# words splits an input on commas, spaces and newlines.
words() {
	printf '%s' "$1" | tr ',\n\t' '   '
}

# The flags every run shares: what to check, against what, and the gate.
args=(report --fail-on "${INPUT_FAIL_ON:-error}")
for p in $(words "${INPUT_CODE:-}"); do args+=(--code "$p"); done
for p in $(words "${INPUT_TOPOLOGY:-}"); do args+=(--topology "$p"); done
[ -n "${INPUT_BASE:-}" ] && args+=(--base "$INPUT_BASE")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")

# only-new-issues: on a pull request, only the findings it adds, against
# its base commit, fetched when the checkout is shallow.
if [ "${INPUT_ONLY_NEW_ISSUES:-false}" = true ]; then
	base_sha=""
	case "${GITHUB_EVENT_NAME:-}" in
	pull_request | pull_request_target)
		base_sha=$(python3 -c 'import json, sys; print((((json.load(open(sys.argv[1])).get("pull_request") or {}).get("base")) or {}).get("sha", ""))' "$GITHUB_EVENT_PATH")
		;;
	esac
	if [ -n "$base_sha" ]; then
		git cat-file -e "$base_sha^{commit}" 2>/dev/null || git fetch --quiet --no-tags --depth=1 origin "$base_sha" || true
		args+=(--new-from-rev "$base_sha")
	else
		echo "::notice title=retrylint::only-new-issues applies to pull requests; every finding is reported"
	fi
fi

# 1. The report in the chosen format, in the log: with "github", each
# finding is an annotation on the pull request's diff.
status=0
"$retrylint" "${args[@]}" --format "${INPUT_FORMAT:-github}" -o "$out/report.log" || status=$?
output exit-code "$status"
if [ "$status" -ge 2 ]; then
	echo "::error title=retrylint::the run failed (exit status $status); see the messages above"
	exit 0
fi
cat "$out/report.log"

# 2. SARIF for code scanning, gated by the step above, not by this run.
if [ "${INPUT_UPLOAD_SARIF:-false}" = true ]; then
	"$retrylint" "${args[@]}" --format sarif --fail-on never -o "$out/retrylint.sarif"
	output sarif "$out/retrylint.sarif"
fi

# 3. The pull-request comment.
if [ "${INPUT_COMMENT:-true}" != true ]; then
	exit 0
fi
case "${GITHUB_EVENT_NAME:-}" in
pull_request | pull_request_target) ;;
*) exit 0 ;;
esac
read -r number head_sha < <(python3 - "$GITHUB_EVENT_PATH" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    pr = json.load(f).get("pull_request") or {}
print(pr.get("number", ""), (pr.get("head") or {}).get("sha", ""))
PY
)
if [ -z "$number" ]; then
	echo "::warning title=retrylint::no pull request in $GITHUB_EVENT_PATH; no comment posted"
	exit 0
fi

marker="<!-- retrylint-report:${INPUT_COMMENT_KEY:-default} -->"
report="$out/retrylint.md"
link=()
if [ -n "$head_sha" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
	link=(--link-base "${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/blob/$head_sha")
fi
"$retrylint" "${args[@]}" --format markdown --fail-on "${INPUT_FAIL_ON:-error}" ${link[@]+"${link[@]}"} -o "$report.body" || true
{
	printf '%s\n' "$marker"
	cat "$report.body"
} >"$report"
output report "$report"

# A pull request from a fork gets a read-only token: the comment cannot be
# posted, which is worth a warning but not a failed job.
no_comment() {
	echo "::warning title=retrylint::could not post the report comment on pull request #$number (a pull request from a fork has a read-only token); the report is in the step's report output"
	exit 0
}
comments="repos/$GITHUB_REPOSITORY/issues/$number/comments"
ids=$("$gh" api --paginate "$comments" --jq ".[] | select(.body | startswith(\"$marker\")) | .id") || no_comment
id=$(printf '%s\n' "$ids" | head -n 1)
if [ -n "$id" ]; then
	"$gh" api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$report" >/dev/null || no_comment
	echo "retrylint: updated the report comment on pull request #$number"
else
	"$gh" api --method POST "$comments" -F "body=@$report" >/dev/null || no_comment
	echo "retrylint: posted the report comment on pull request #$number"
fi
