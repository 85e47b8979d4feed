#!/usr/bin/env bash
# Where the CPU of `landscreen serve --distributed` goes, process by process: every child's CPU
# ticks (1/100 s, from /proc/<pid>/stat) over 10 s idle, then over 10 s of 64 connections on one
# endpoint. Run in a clone with its build, against a PostgreSQL server of that build's own:
#
#   scripts/distributed-cpu.sh [postgres://postgres@127.0.0.1:5432] [/v1/meta/plans]
#
# Per-request CPU (load ticks / requests) does not depend on the machine's load as req/s does.
set -euo pipefail
pgbase=${1:-postgres://postgres@127.0.0.1:5432}
endpoint=${2:-/v1/meta/plans}
here=$(cd "$(dirname "$0")/.." && pwd)
db=landscreen_distributed_cpu_$$
work=$(mktemp -d)
psql "$pgbase/test" -qc "create database $db" >/dev/null
port=$((20000 + RANDOM % 10000))
cd "$here"
env DATABASE_URL="$pgbase/$db" NATS_URL=${NATS_URL:-nats://127.0.0.1:4222} PORT=$port AUTH_PORT=$((port + 1)) DISCOVERY_PORT=$((port + 2)) \
  PIPELINE_PORT=$((port + 3)) DILIGENCE_PORT=$((port + 4)) CATALOG_PORT=$((port + 5)) LOG_LEVEL=warn \
  node --max-semi-space-size=64 packages/cli/bin/landscreen.js serve --distributed >"$work/serve.log" 2>&1 &
top=$!
cleanup() { kill "$top" 2>/dev/null || true; wait "$top" 2>/dev/null || true; psql "$pgbase/test" -qc "drop database if exists $db with (force)" >/dev/null; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 240); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.5; done
sleep 3
kids=$(pgrep -P "$top")
ticks() { for k in $kids; do echo "$k $(awk '{print $14 + $15}' "/proc/$k/stat")"; done | sort; }
for k in $kids; do echo "$k $(tr '\0' ' ' <"/proc/$k/cmdline" | grep -o 'serve.*' | tr ' ' _)"; done | sort >"$work/names"
ticks >"$work/a"; sleep 10; ticks >"$work/b"
npx autocannon -c 64 -d 2 "http://127.0.0.1:$port$endpoint" >/dev/null 2>&1
ticks >"$work/c"
requests=$(npx autocannon -c 64 -d 10 --json "http://127.0.0.1:$port$endpoint" 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).requests.total))')
ticks >"$work/d"
echo "load: $requests requests in 10 s on $endpoint (load average $(cut -d' ' -f1 /proc/loadavg))"
echo "| process | idle ticks per 10 s | ticks under load | ms CPU per request |"
join "$work/a" "$work/b" | join - "$work/c" | join - "$work/d" | join - "$work/names" |
  awk -v n="$requests" '{ printf "| %s | %d | %d | %.3f |\n", $6, $3 - $2, $5 - $4, ($5 - $4) * 10 / n }'
