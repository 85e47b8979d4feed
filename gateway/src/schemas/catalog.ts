import { Type } from '@sinclair/typebox';
import { Closed, Nullable, Str, Uuid } from './common.js';

export const FieldsQuery = Type.Object({
  layer: Type.Optional(Str(1, 64)),
  preset: Type.Optional(Str(1, 64)),
  name: Type.Optional(Str(1, 100)),
});

const Location = Closed({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
  id: Type.Optional(Str(1, 128, { description: 'The caller\'s own id, echoed back.' })),
});

const selection = {
  fields: Type.Optional(Type.Array(Str(1, 100), { minItems: 1, maxItems: 500, description: 'Catalog field names.' })),
  preset: Type.Optional(Str(1, 64, { description: 'A named bundle of fields.' })),
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Quote the credits without charging or fetching.' })),
};

export const FetchBatchRequest = Closed(
  { locations: Type.Array(Location, { minItems: 1, maxItems: 1000 }), ...selection },
  { $id: 'FetchBatchRequest', description: 'D34: at most 1,000 locations; `fields` and/or `preset`.' },
);

export const RunRequest = Closed(
  { locations: Type.Array(Location, { minItems: 1, maxItems: 100000 }), ...selection },
  { $id: 'RunRequest', description: 'D35: an asynchronous batch of up to 100,000 locations.' },
);

export const RunPath = Type.Object({ run_id: Type.String() });

export const LookupRequest = Closed(
  {
    address: Type.Optional(Str(1, 500)),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    market: Type.Optional(Str(1, 100)),
    include_parcel: Type.Optional(Type.Boolean({ default: false })),
    radius_m: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 5000, default: 250 })),
  },
  { $id: 'LookupRequest', description: 'D35: an address or a point (lat and lon).' },
);

const LayerVersion = Closed(
  {
    id: Uuid(),
    name: Type.String(),
    format: Type.Union(['geojson', 'ndjson', 'csv', 'shapefile', 'geotiff'].map((format) => Type.Literal(format))),
    file_name: Type.String(),
    crs: Type.String({ description: 'The CRS the file was in, as it named it.' }),
    feature_count: Type.Integer({ description: 'Features of a vector layer; cells of a grid.' }),
    bbox: Nullable(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'WGS84 [min_lon, min_lat, max_lon, max_lat].' })),
    loaded_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'LayerVersion' },
);

const SourceRecord = Closed(
  {
    id: Type.String(),
    geometry: Type.Union(['points', 'lines', 'polygons', 'mixed', 'grid'].map((kind) => Type.Literal(kind))),
    properties: Type.Array(Closed({ name: Type.String(), type: Type.Union(['string', 'number', 'integer', 'boolean'].map((kind) => Type.Literal(kind))) }), {
      description: 'The feature properties the source reads (`landscreen import layer --map` renames a file\'s attributes onto them).',
    }),
    band: Nullable(Type.String(), { description: 'For a grid: what its band holds, in which unit.' }),
    fields: Type.Array(Type.String(), { description: 'The catalog fields computed from the source.' }),
    source_url: Type.String(),
    current_version: Nullable(LayerVersion, { description: 'The layer version answering now; null when none is loaded.' }),
  },
  { $id: 'SourceRecord' },
);

export const SourcesResponse = Closed({ sources: Type.Array(SourceRecord) }, { $id: 'SourcesResponse' });
