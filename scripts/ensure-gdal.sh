#!/usr/bin/env bash
# Makes sure GDAL's command-line tools (gdal-bin: ogr2ogr, ogrinfo, gdallocationinfo) are installed:
# tests read exported Shapefiles and GeoPackages back with ogrinfo and check FileGDB through Debian's
# GDAL as well as gdal3.js. The product never needs them (gdal3.js from npm reads FileGDB). Used by
# CI (root on Debian); harmless when they are there.
set -euo pipefail

if command -v ogr2ogr >/dev/null 2>&1 && command -v ogrinfo >/dev/null 2>&1; then
  echo "gdal-bin present: $(ogrinfo --version)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "gdal-bin is missing: install it (Debian/Ubuntu: apt-get install gdal-bin)" >&2
  exit 1
fi
echo "installing gdal-bin"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends gdal-bin >/dev/null 2>&1 || {
  apt-get update -qq
  apt-get install -y --no-install-recommends gdal-bin
}
command -v ogrinfo >/dev/null
echo "gdal-bin installed: $(ogrinfo --version)"
