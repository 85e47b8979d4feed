import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// D38: layer versions may come from the formats publishers ship besides D36's (GeoPackage,
// FileGDB, FlatGeobuf, KML, KMZ, XLSX). The format column's check lists them.
export const up = (db: Kysely<any>) =>
  statements(
    'alter table catalog.layer_versions drop constraint layer_versions_format_check',
    `alter table catalog.layer_versions add constraint layer_versions_format_check
       check (format in ('geojson', 'ndjson', 'csv', 'shapefile', 'gpkg', 'filegdb', 'flatgeobuf', 'kml', 'kmz', 'xlsx', 'geotiff'))`,
  )(db);

// Back to D36's list; refused while a version of a newer format exists (drop it first).
export const down = (db: Kysely<any>) =>
  statements(
    'alter table catalog.layer_versions drop constraint layer_versions_format_check',
    `alter table catalog.layer_versions add constraint layer_versions_format_check
       check (format in ('geojson', 'ndjson', 'csv', 'shapefile', 'geotiff'))`,
  )(db);
