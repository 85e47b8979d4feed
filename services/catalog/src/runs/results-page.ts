import { conflict, issue, validationError } from '@landscreen/rpc';
import { GEOJSON_CLOSING, GEOJSON_OPENING, parseResultLines, resultCsvHeader, resultCsvRow, resultFeatureJson } from '@landscreen/fetch-results';
import type { CatalogDb } from '../schema.js';
import { readRun, type RunRow } from './run-rows.js';

export const RESULT_FORMATS = ['ndjson', 'csv', 'geojson'] as const;
export type ResultFormat = (typeof RESULT_FORMATS)[number];

/**
 * A page holds whole chunks up to about this many bytes of stored NDJSON (at least one chunk), so
 * neither the service nor the gateway ever holds a whole 100,000-location run, however many fields.
 */
const PAGE_BYTES = 4 * 1024 * 1024;
/** Chunks looked at per page. */
const MAX_CHUNKS_PER_PAGE = 50;

export interface ResultsPage {
  data: Buffer;
  nextChunk: number;
  done: boolean;
}

/**
 * One page of a run's results file, in input order: the done chunks from `fromChunk` on, rendered
 * in `format`. The first page opens the file (CSV header, GeoJSON collection), the last closes it.
 * A run still queued or running has no results yet (409 `run_not_finished`); a cancelled or failed
 * run answers the locations it did process. A run's done chunks never change, so reading page by
 * page needs no snapshot.
 */
export async function readResultsPage(db: CatalogDb, tenantId: string, runId: string, format: string, fromChunk: number): Promise<ResultsPage> {
  if (!(RESULT_FORMATS as readonly string[]).includes(format)) {
    throw validationError([issue.literalError(['query', 'format'], format, [...RESULT_FORMATS])]);
  }
  const run = await readRun(db, tenantId, runId);
  if (run.status === 'queued' || run.status === 'running') {
    throw conflict('run_not_finished', `The run is ${run.status}: its results can be read once it has finished.`, { status: run.status, done: run.done, total: run.total });
  }
  // The next done chunks' sizes first, then the text of those that fit the page.
  const sizes = await db
    .selectFrom('run_chunks')
    .select((eb) => ['chunk_no', eb.fn<number>('octet_length', ['results']).as('bytes')])
    .where('run_id', '=', run.id)
    .where('chunk_no', '>=', fromChunk)
    .where('status', '=', 'done')
    .orderBy('chunk_no')
    .limit(MAX_CHUNKS_PER_PAGE)
    .execute();
  let take = 0;
  for (let bytes = 0; take < sizes.length && (take === 0 || bytes + Number(sizes[take].bytes) <= PAGE_BYTES); take++) bytes += Number(sizes[take].bytes);
  const chosen = sizes.slice(0, take).map((row) => row.chunk_no);
  const rows =
    chosen.length === 0
      ? []
      : await db
          .selectFrom('run_chunks')
          .select(['chunk_no', 'results'])
          .where('run_id', '=', run.id)
          .where('chunk_no', 'in', chosen)
          .orderBy('chunk_no')
          .execute();
  const done = take === sizes.length && sizes.length < MAX_CHUNKS_PER_PAGE;
  const nextChunk = rows.length === 0 ? fromChunk : rows[rows.length - 1].chunk_no + 1;
  const first = fromChunk === 0;
  const parts: string[] = [];
  if (first) parts.push(opening(format as ResultFormat, run));
  rows.forEach((row, i) => parts.push(render(format as ResultFormat, run, row.results ?? '', first && i === 0)));
  if (done) parts.push(closing(format as ResultFormat));
  return { data: Buffer.from(parts.join(''), 'utf8'), nextChunk, done };
}

function opening(format: ResultFormat, run: RunRow): string {
  if (format === 'csv') return resultCsvHeader(run.fields);
  if (format === 'geojson') return GEOJSON_OPENING;
  return '';
}

const closing = (format: ResultFormat): string => (format === 'geojson' ? GEOJSON_CLOSING : '');

/** A done chunk's stored NDJSON in the requested format. */
function render(format: ResultFormat, run: RunRow, ndjson: string, firstOfFile: boolean): string {
  if (format === 'ndjson') return ndjson;
  const records = parseResultLines(ndjson);
  if (format === 'csv') return records.map((record) => resultCsvRow(run.fields, record)).join('');
  return records.map((record, i) => (firstOfFile && i === 0 ? '' : ',') + resultFeatureJson(record)).join('');
}
