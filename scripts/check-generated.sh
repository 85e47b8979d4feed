#!/usr/bin/env bash
# Generated protobuf code is committed (packages/proto/src/gen). This regenerates it from proto/
# and fails when the result differs from what is committed, so the two can never drift.
set -euo pipefail
cd "$(dirname "$0")/.."
npx --no-install buf generate
if ! git diff --quiet --exit-code -- packages/proto/src/gen || [ -n "$(git status --porcelain -- packages/proto/src/gen)" ]; then
  echo "generated code is stale: run 'npm run generate' and commit packages/proto/src/gen" >&2
  git status --short -- packages/proto/src/gen >&2
  exit 1
fi
echo "generated code is up to date"

# Each service's table types are generated from its migrations (a scratch database on the test
# PostgreSQL server, migrated and read back by kysely-codegen); they too must match what is committed.
npx --no-install tsx --conditions=@landscreen/source scripts/table-types.ts --check
