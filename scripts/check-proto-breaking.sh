#!/usr/bin/env bash
# The protobuf contract (proto/) must not break for gRPC callers: `buf breaking` (buf.yaml's FILE
# rules) compares the working tree's protos with those of a baseline commit and fails on a break.
#
# The baseline is the last commit that changed proto/BREAKING_BASELINE. A deliberate break (a
# field retyped, a message removed) is made by adding a line to that file, saying what breaks and
# why, in the same commit: from that commit on, the contract it carries is the baseline. While the
# file has uncommitted changes, the break is being recorded: the check prints what breaks against
# the previous baseline and passes.
#
# Needs git history: without .git, or in a shallow clone (where the baseline commit may be
# missing or misattributed), it skips with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
MARKER=proto/BREAKING_BASELINE
buf() { npx --no-install buf "$@"; }

if ! git rev-parse --git-dir >/dev/null 2>&1; then
  echo "proto breaking check skipped: not a git checkout (no history to compare with)"
  exit 0
fi
if [ "$(git rev-parse --is-shallow-repository)" = "true" ]; then
  echo "proto breaking check skipped: shallow clone (run 'git fetch --unshallow' to check)"
  exit 0
fi

baseline=$(git log -1 --format=%H -- "$MARKER" || true)
recording=false
if [ -z "$baseline" ] || [ -n "$(git status --porcelain -- "$MARKER")" ]; then
  recording=true
fi
if [ -z "$baseline" ]; then
  echo "proto breaking check: $MARKER is not committed yet; this change sets the first baseline"
  exit 0
fi

against=$(mktemp -d)
trap 'rm -rf "$against"' EXIT
# The baseline's module as it was committed: its buf.yaml and proto/ (plumbing only, no checkout).
git archive "$baseline" buf.yaml proto | tar -x -C "$against"

echo "proto breaking check against $(git log -1 --format='%h %s' "$baseline")"
if $recording; then
  echo "$MARKER has uncommitted changes: recording a deliberate break; what it breaks:"
  buf breaking --against "$against" || true
  exit 0
fi
if ! buf breaking --against "$against"; then
  echo >&2
  echo "breaking change in proto/ (above). Make the change compatible (add fields, reserve removed" >&2
  echo "numbers), or, if the break is deliberate, add a line to $MARKER saying what breaks and why." >&2
  exit 1
fi
echo "no breaking change"
