#!/usr/bin/env bash
# Makes sure poppler-utils (pdftotext, pdfinfo, pdftoppm) are installed: the PDF report tests read
# the rendered reports back with them (test/support/pdf.ts). Used by CI (root on Debian); harmless
# when they are there.
set -euo pipefail

if command -v pdftotext >/dev/null 2>&1 && command -v pdftoppm >/dev/null 2>&1 && command -v pdfinfo >/dev/null 2>&1; then
  echo "poppler-utils present: $(pdftotext -v 2>&1 | head -n 1)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "poppler-utils are missing: install them (Debian/Ubuntu: apt-get install poppler-utils)" >&2
  exit 1
fi
echo "installing poppler-utils"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends poppler-utils >/dev/null 2>&1 || {
  apt-get update -qq
  apt-get install -y --no-install-recommends poppler-utils
}
command -v pdftotext >/dev/null
echo "poppler-utils installed: $(pdftotext -v 2>&1 | head -n 1)"
