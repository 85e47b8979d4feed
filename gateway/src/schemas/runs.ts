import { Type } from '@sinclair/typebox';
import { BilledHeaders } from './catalog.js';
import { Str } from './common.js';

/** The headers of POST /v1/runs: a billed POST's (tenant, Idempotency-Key, D34) and what the body is. */
export const RunHeaders = Type.Object({
  ...BilledHeaders.properties,
  'content-type': Type.Optional(Type.String({ description: 'application/json, or an upload: text/csv, application/geo+json, application/x-ndjson.' })),
});

/** With an upload the body is the file, so the field selection travels in the query string. */
export const RunUploadQuery = Type.Object({
  fields: Type.Optional(Str(1, 50_000, { description: 'Upload only: catalog field names, comma-separated.' })),
  preset: Type.Optional(Str(1, 64, { description: 'Upload only: a named bundle of fields.' })),
  dry_run: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Upload only: answer the quote, queue nothing.' })),
});

export const RunsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Str(1, 500, { description: 'The next_cursor of the previous page.' })),
});

export const RunResultsQuery = Type.Object({
  format: Type.Optional(
    Type.Union(['ndjson', 'csv', 'geojson', 'kml', 'shapefile', 'gpkg'].map((format) => Type.Literal(format)), { default: 'ndjson' }),
  ),
});

export const RunPath = Type.Object({ run_id: Type.String() });

// The answers of the run routes: @landscreen/api-schemas.
export { Run, RunCreated, RunList, RunQuote } from '@landscreen/api-schemas';
