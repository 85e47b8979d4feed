import { Readable } from 'node:stream';
import { create } from '@bufbuild/protobuf';
import { catalogv1 } from '@landscreen/proto';
import { RunRequest } from '../schemas/catalog.js';
import { TenantHeaders } from '../schemas/common.js';
import { Run, RunCreated, RunHeaders, RunQuote, RunList, RunPath, RunResultsQuery, RunsQuery, RunUploadQuery } from '../schemas/runs.js';
import { billingHeaders } from './billing-headers.js';
import { BODY_LIMITS } from './body-limits.js';
import { asCaller } from './call.js';
import { BILLED_422, errors, file, json, SIGNED_IN } from './responses.js';
import { READERS, WRITERS } from './roles.js';
import type { RouteDef, RouteResult } from './route.js';
import { EXPORT_MEDIA_TYPES } from './export-answer.js';
import { runResultsExport } from './run-results-export.js';
import { runCreatedJson, runJson, runListJson, runQuoteJson } from '../views/run.js';

const tag = 'catalog';

const RUN_LOCATION = catalogv1.RunLocationSchema.typeName;

const CONTENT_TYPES = { ndjson: 'application/x-ndjson', csv: 'text/csv; charset=utf-8', geojson: 'application/geo+json' } as const;

export const runRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/v1/runs',
    operationId: 'createRun',
    summary: 'Start an asynchronous batch of up to 100,000 locations',
    description:
      'D35. Charged once, at submission, like a batch (402 `insufficient_credits` and nothing queued when the balance is short). ' +
      'The body is `{"locations":[{"lat","lon","id"?}], "fields"?, "preset"?}` (application/json), or an upload named by its Content-Type: ' +
      '`text/csv` (header row; `lat`/`lon` columns or a WKT point `geometry`; optional `id`), `application/geo+json` (a FeatureCollection of Point features) ' +
      'or `application/x-ndjson` (one `{"lat","lon","id"?}` or Point Feature per line), with `fields` (comma-separated) and/or `preset` in the query string. ' +
      'A bad upload row answers 422 at `["body","line",<line>]`. An `Idempotency-Key` replays the first answer for 24 h. ' +
      '`"dry_run": true` (or `?dry_run=true` with an upload) answers 200 with the quote and queues nothing.',
    tag,
    security: 'session',
    roles: WRITERS,
    request: { headers: RunHeaders, query: RunUploadQuery, body: RunRequest, bodyRequired: true },
    bodyLimit: BODY_LIMITS.run,
    bodyDecoder: 'run',
    responses: {
      202: json('The run is charged and queued: `{"run_id","status"}`.', RunCreated),
      200: json('A dry run\'s quote: `{"run_id": null, "status": "quote", "credits": {"charged": 0, "per_location", "required", "balance"}}`.', RunQuote),
      ...errors([...SIGNED_IN, 402, 429], {
        402: 'insufficient_credits: nothing charged, nothing queued.',
        422: BILLED_422,
        429: 'rate_limited: the plan\'s rpm is used up this minute; Retry-After says when to retry.',
      }),
    },
    handler: async ({ request, caller, raw, deps }): Promise<RouteResult> => {
      const body = request.body as { locations: { lat: number; lon: number; id?: string }[]; fields?: string[]; preset?: string; dry_run?: boolean };
      const message = create(catalogv1.CreateRunRequestSchema, {
        fields: body.fields ?? [],
        preset: body.preset,
        idempotencyKey: request.headers['idempotency-key'],
        dryRun: body.dry_run === true,
      });
      // Up to 100,000 locations as message literals: create() walks each one by reflection, about
      // a second of the thread answering requests for a full run on a loaded machine.
      message.locations = body.locations.map((location) => ({ $typeName: RUN_LOCATION, lat: location.lat, lon: location.lon, id: location.id }));
      const answer = await deps.clients.catalog.createRun(message, asCaller(caller, raw.id));
      if (answer.quote) return { status: 200, body: runQuoteJson(answer.quote), headers: billingHeaders(answer.billing) };
      return { status: 202, body: runCreatedJson(answer.run), headers: billingHeaders(answer.billing) };
    },
  },
  {
    method: 'GET',
    path: '/v1/runs',
    operationId: 'listRuns',
    summary: 'The tenant\'s batch runs, newest first',
    tag,
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, query: RunsQuery },
    responses: { 200: json('`{"runs":[run], "next_cursor"}`.', RunList), ...errors(SIGNED_IN) },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.catalog.listRuns({ limit: request.query.limit ?? 50, cursor: request.query.cursor }, asCaller(caller, raw.id));
      return { status: 200, body: runListJson(answer) };
    },
  },
  {
    method: 'GET',
    path: '/v1/runs/{run_id}',
    operationId: 'getRun',
    summary: 'Status, progress, timing and credits of a batch run',
    description: 'Status `queued`, `running`, `succeeded`, `cancelled` or `failed`; progress counts locations. Another tenant\'s run is 404.',
    tag,
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: RunPath },
    responses: { 200: json('The run.', Run), ...errors([...SIGNED_IN, 404], { 404: 'run_not_found (another tenant\'s run too).' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.catalog.getRun({ runId: request.path.run_id }, asCaller(caller, raw.id));
      return { status: 200, body: runJson(answer.run) };
    },
  },
  {
    method: 'GET',
    path: '/v1/runs/{run_id}/results',
    operationId: 'getRunResults',
    summary: 'The results of a finished batch run, streamed in input order',
    description:
      '`format=ndjson` (default; one result object `{"id","lat","lon","values","null_reasons"}` per line), `csv` (columns id, lat, lon, one per field, ' +
      'then `null_reasons` as a JSON object), `geojson` (a FeatureCollection of Point features whose properties are id, values and null_reasons), ' +
      'or `kml`, `shapefile` (a zip) or `gpkg` (a Point per location with the CSV\'s columns, D40). ' +
      'A run still queued or running answers 409 `run_not_finished`; a cancelled or failed run answers the locations it processed.',
    tag,
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: RunPath, query: RunResultsQuery },
    responses: {
      200: file('The results file, by `format`: ndjson (default), csv, geojson, kml, shapefile (a zip) or gpkg.', [
        'application/x-ndjson',
        ...new Set(['text/csv', 'application/geo+json', ...EXPORT_MEDIA_TYPES]),
      ]),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'run_not_found.', 409: 'run_not_finished: the run is still queued or running (`status`, `done`, `total`).' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const runId = request.path.run_id;
      const options = asCaller(caller, raw.id);
      const asked = request.query.format ?? 'ndjson';
      // KML, Shapefile and GeoPackage are written here from the stored NDJSON (D40).
      if (asked === 'kml' || asked === 'shapefile' || asked === 'gpkg') return runResultsExport(deps, runId, asked, options);
      const format = asked as keyof typeof CONTENT_TYPES;
      // The first page is read before answering, so a 404 or 409 is a plain error answer; later
      // pages stream on as the client reads (about 4 MiB in memory at a time).
      const first = await deps.clients.catalog.readRunResults({ runId, format, fromChunk: 0 }, options);
      async function* pages() {
        yield Buffer.from(first.data);
        let page = first;
        while (!page.done) {
          page = await deps.clients.catalog.readRunResults({ runId, format, fromChunk: page.nextChunk }, options);
          yield Buffer.from(page.data);
        }
      }
      return {
        status: 200,
        body: Readable.from(pages()),
        headers: {
          'content-type': CONTENT_TYPES[format],
          'content-disposition': `attachment; filename="run-${runId}.${format === 'geojson' ? 'geojson' : format}"`,
        },
      };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/runs/{run_id}',
    operationId: 'cancelRun',
    summary: 'Cancel a batch run and refund what it did not process',
    description:
      'Chunks not yet processed are never processed and their locations\' credits are refunded (a credit-ledger row), once: repeating the call changes nothing. ' +
      'A finished run is answered as it is.',
    tag,
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, path: RunPath },
    responses: { 200: json('The run after the cancel.', Run), ...errors([...SIGNED_IN, 404], { 404: 'run_not_found.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.catalog.cancelRun({ runId: request.path.run_id }, asCaller(caller, raw.id));
      return { status: 200, body: runJson(answer.run) };
    },
  },
];
