#!/usr/bin/env bash
# Writes the files the importer must refuse (packages/layer-io/fixtures/refused) with GDAL's own
# writers (Debian's gdal-bin), from the Texas counties of make-layer-fixtures.sh. Run by hand
# (`bash packages/layer-io/scripts/make-refused-fixtures.sh`); the tests read the committed files.
#
#   noprj-albers.zip    the counties in CONUS Albers (EPSG:5070), zipped without their .prj
#   dbf-mismatch.zip    a .shp of 50 counties zipped with the .dbf of all 254
#   zip-bomb.zip        a "Shapefile" whose .shp is 200 MB of zeros (about 1,000:1)
#   flood-zones.geojson NFHL-like flood hazard polygons: SFHA_TF and FLD_ZONE (A, AE, VE, X, D, AREA NOT INCLUDED)
#   empty.geojson       a FeatureCollection without features
set -euo pipefail

fixtures="$(cd "$(dirname "$0")/../fixtures" && pwd)"
out="$fixtures/refused"
mkdir -p "$out"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

ogr2ogr -f "ESRI Shapefile" -t_srs EPSG:5070 albers.shp "$fixtures/counties.geojson"
rm -f "$out/noprj-albers.zip" && zip -q "$out/noprj-albers.zip" albers.shp albers.shx albers.dbf

ogr2ogr -f "ESRI Shapefile" few.shp "$fixtures/counties.geojson" -where "COUNTYFP < 100"
ogr2ogr -f "ESRI Shapefile" all.shp "$fixtures/counties.geojson"
cp all.dbf few.dbf
rm -f "$out/dbf-mismatch.zip" && zip -q "$out/dbf-mismatch.zip" few.shp few.shx few.dbf few.prj

head -c 200000000 /dev/zero > bomb.shp
cp all.shx bomb.shx && cp all.dbf bomb.dbf && cp all.prj bomb.prj
rm -f "$out/zip-bomb.zip" && zip -q -9 "$out/zip-bomb.zip" bomb.shp bomb.shx bomb.dbf bomb.prj

# Every county becomes a flood hazard area of a zone chosen by its county number (Texas numbers its counties 1, 3, 5, ...): 1 in 6 each.
rm -f "$out/flood-zones.geojson" "$out/empty.geojson"
ogr2ogr -f GeoJSON "$out/flood-zones.geojson" "$fixtures/counties.geojson" -nln S_FLD_HAZ_AR -dialect SQLite -sql "
  SELECT geometry, GEOID AS FLD_AR_ID,
    CASE ((COUNTYFP - 1) / 2) % 6 WHEN 0 THEN 'A' WHEN 1 THEN 'AE' WHEN 2 THEN 'VE' WHEN 3 THEN 'X' WHEN 4 THEN 'D' ELSE 'AREA NOT INCLUDED' END AS FLD_ZONE,
    CASE WHEN ((COUNTYFP - 1) / 2) % 6 < 3 THEN 'T' ELSE 'F' END AS SFHA_TF
  FROM counties"

ogr2ogr -f GeoJSON "$out/empty.geojson" "$fixtures/counties.geojson" -where "1 = 0"

ls -la "$out"
