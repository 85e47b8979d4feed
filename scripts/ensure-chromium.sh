#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed: the console's browser tests (test/browser) and
# `npm run bench:console` drive it through playwright-core (no browser download at install).
# Used by CI (root on Debian); harmless when it is there. CHROMIUM_PATH names another binary.
set -euo pipefail

binary="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$binary" ]; then
  echo "chromium present: $("$binary" --version 2>/dev/null | head -n 1)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "installing chromium"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 || {
  apt-get update -qq
  apt-get install -y --no-install-recommends chromium
}
[ -x "$binary" ]
echo "chromium installed: $("$binary" --version 2>/dev/null | head -n 1)"
