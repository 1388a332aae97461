#!/usr/bin/env bash
# The retrylint action's step (action.yml): runs "retrylint report" once,
# as the inputs say, and from that one run prints the report in the chosen
# format to the log, writes the SARIF report for code scanning when asked,
# and on a pull request posts the Markdown report as one comment, found
# again on later runs by a hidden marker and updated in place. It exits 0
# and leaves retrylint's exit status in the step output exit-code, so that
# the SARIF upload runs before the gate fails the job; it exits non-zero
# itself only when it cannot do its work (an unreadable event file). A
# comment that cannot be posted is a warning.
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

# The flags of the run: what to check, against what, and the gate. A new
# input that changes what is checked or gated adds its flags here.
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

# The pull request the comment goes to, when one is asked for.
number="" head_sha=""
if [ "${INPUT_COMMENT:-true}" = true ]; then
	case "${GITHUB_EVENT_NAME:-}" in
	pull_request | pull_request_target)
		read -r number head_sha < <(python3 - "$GITHUB_EVENT_PATH" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    pr = json.load(f).get("pull_request") or {}
print(pr.get("number", ""), (pr.get("head") or {}).get("sha", ""))
PY
)
		if [ -z "$number" ]; then
			echo "::warning title=retrylint::no pull request in $GITHUB_EVENT_PATH; no comment posted"
		fi
		;;
	esac
fi

# The reports, all written by one run of the analysis: the chosen format
# for the log (with "github", each finding is an annotation on the pull
# request's diff), SARIF for code scanning, and the Markdown comment.
reports=(--format "${INPUT_FORMAT:-github}" -o "$out/report.log")
sarif="" body=""
if [ "${INPUT_UPLOAD_SARIF:-false}" = true ]; then
	sarif="$out/retrylint.sarif"
	reports+=(--output-sarif "$sarif")
fi
if [ -n "$number" ]; then
	body="$out/retrylint.md.body"
	reports+=(--output-markdown "$body")
	if [ -n "$head_sha" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
		reports+=(--link-base "${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/blob/$head_sha")
	fi
fi

status=0
"$retrylint" "${args[@]}" "${reports[@]}" || status=$?
output exit-code "$status"
if [ "$status" -ge 2 ]; then
	echo "::error title=retrylint::the run failed (exit status $status); see the messages above"
	exit 0
fi
cat "$out/report.log"

# SARIF for code scanning; the gate is the step's exit-code, not the
# upload. Each comment key is a category of its own, so that the
# analyses of two jobs do not replace each other.
if [ -n "$sarif" ]; then
	output sarif "$sarif"
	category=retrylint
	if [ "${INPUT_COMMENT_KEY:-default}" != default ]; then
		category="retrylint/$INPUT_COMMENT_KEY"
	fi
	output sarif-category "$category"
fi

# The pull-request comment.
if [ -z "$body" ]; then
	exit 0
fi
marker="<!-- retrylint-report:${INPUT_COMMENT_KEY:-default} -->"
report="$out/retrylint.md"
{
	printf '%s\n' "$marker"
	cat "$body"
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
