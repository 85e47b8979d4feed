#!/usr/bin/env bash
# Runs one benchmark of two builds side by side, alternating, so both meet the same machine:
#
#   scripts/bench-side-by-side.sh <rev> <bench> [rounds]      e.g.  scripts/bench-side-by-side.sh 0f4b1f7 pipeline 2
#
# <rev> is checked out (once) beside this clone and installed with `npm ci`; <bench> is a
# `npm run bench:<bench>` script; the runs go rev, this build, rev, this build... (`rounds` pairs,
# default 2). Logs land in $BENCH_LOGS (default /tmp/landscreen-side-by-side) as
# <bench>-<build>-<round>.log; each run's first line is the load average when it started.
#
# The other build gets a PostgreSQL cluster of its own on port $SIDE_PORT (default 5433), started
# here with the same memory and durability settings as the server the benchmarks use: the two
# builds' migrations differ, and a database one of them migrated is refused by the other, while
# some benchmarks keep their database between runs (the million-parcel market).
set -euo pipefail

rev=${1:?usage: $0 <rev> <bench> [rounds]}
bench=${2:?usage: $0 <rev> <bench> [rounds]}
rounds=${3:-2}
here=$(cd "$(dirname "$0")/.." && pwd)
short=$(git -C "$here" rev-parse --short "$rev")
other=${SIDE_DIR:-$(dirname "$here")/landscreen-$short}
logs=${BENCH_LOGS:-/tmp/landscreen-side-by-side}
port=${SIDE_PORT:-5433}
admin=${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
cluster=${SIDE_CLUSTER:-/tmp/landscreen-side-pg-$port}
mkdir -p "$logs"

if [ ! -d "$other/node_modules" ]; then
  echo "checking out $short into $other"
  rm -rf "$other"
  git clone -q "$here" "$other"
  git -C "$other" checkout -q "$short"
  (cd "$other" && npm ci --no-audit --no-fund >/dev/null)
fi

pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pgbin/pg_ctl" ] || pgbin=$(dirname "$(command -v pg_ctl)")
as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -s /bin/bash -c "$*"; else bash -c "$*"; fi; }
if ! "$pgbin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
  setting() { psql "$admin" -Atc "select setting || coalesce(unit, '') from pg_settings where name = '$1'"; }
  shared_buffers=$(psql "$admin" -Atc "select setting::bigint * 8 from pg_settings where name = 'shared_buffers'")kB
  options="-c shared_buffers=$shared_buffers -c autovacuum=$(setting autovacuum) -c fsync=$(setting fsync)"
  options="$options -c synchronous_commit=$(setting synchronous_commit) -c max_connections=$(setting max_connections)"
  options="$options -c max_wal_size=$(setting max_wal_size) -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp"
  if [ ! -f "$cluster/PG_VERSION" ]; then
    mkdir -p "$cluster" && chown postgres "$cluster" 2>/dev/null || true
    as_postgres "$pgbin/initdb -D $cluster -U postgres --auth=trust >/dev/null"
  fi
  as_postgres "$pgbin/pg_ctl -D $cluster -o '-p $port $options' -l $cluster/log -w start >/dev/null"
  psql "postgres://postgres@127.0.0.1:$port/postgres" -qc 'create database test' 2>/dev/null || true
fi
other_admin="postgres://postgres@127.0.0.1:$port/test"

for round in $(seq 1 "$rounds"); do
  for build in "$short" this; do
    log="$logs/$bench-$build-$round.log"
    echo "round $round: $build -> $log"
    if [ "$build" = this ]; then dir=$here url=$admin; else dir=$other url=$other_admin; fi
    { echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)  build: $build ($(git -C "$dir" rev-parse --short HEAD))"
      (cd "$dir" && TEST_DATABASE_URL=$url npm run --silent "bench:$bench") 2>&1; } >"$log" || echo "  failed, see $log"
  done
done
