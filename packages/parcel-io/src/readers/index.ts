// readParcelFile: a parcel file of any supported format as a stream of SourceRows.

import type { ParcelFileFormat, SourceRow } from '../types.js';
import { DEFAULT_CHUNK_SIZE, readChunks, type ProgressListener } from './chunks.js';
import { CsvParser } from './csv.js';
import { FeatureCollectionParser } from './feature-collection.js';
import { detectFormat } from './format.js';
import { NdjsonParser } from './ndjson.js';
import type { RowParser } from './row-parser.js';

export { detectFormat, formatFromExtension, readFileHead, sniffFormat } from './format.js';
export { DEFAULT_CHUNK_SIZE, type ReadProgress, type ProgressListener } from './chunks.js';
export type { RowParser } from './row-parser.js';
export { FeatureCollectionParser, type FeatureCollectionOptions } from './feature-collection.js';
export { NdjsonParser } from './ndjson.js';
export { CsvParser } from './csv.js';
export { CsvRecordReader, type RecordSink } from './csv-records.js';
export { parseFeature, featureToRow } from './feature.js';

export interface ReadParcelFileOptions {
  /** Overrides the format inferred from the extension (or, failing that, the first bytes). */
  format?: ParcelFileFormat;
  /** Called after each chunk is read, for a progress bar (bytes read / total size). */
  onProgress?: ProgressListener;
  /** Bytes per read; the default (1 MiB) suits production, tests use tiny ones to split rows. */
  chunkSize?: number;
  /** A parser configured by the caller (e.g. one that reprojects), in place of the format's default. */
  parser?: RowParser;
}

export function createRowParser(format: ParcelFileFormat): RowParser {
  switch (format) {
    case 'geojson':
      return new FeatureCollectionParser();
    case 'ndjson':
      return new NdjsonParser();
    case 'csv':
      return new CsvParser();
  }
}

/**
 * Rows in the batches each chunk completes. Cheaper than one await per row, so the importer
 * (which inserts in batches anyway) should prefer it; rows are yielded in file order.
 * Throws ParcelRowError on the first bad row.
 */
export async function* readParcelBatches(
  path: string,
  options: ReadParcelFileOptions = {},
): AsyncGenerator<SourceRow[], void, undefined> {
  const parser = options.parser ?? createRowParser(options.format ?? (await detectFormat(path)));
  for await (const chunk of readChunks(path, options.chunkSize ?? DEFAULT_CHUNK_SIZE, options.onProgress)) {
    yield* parseStep((rows) => parser.push(chunk, rows));
  }
  yield* parseStep((rows) => parser.end(rows));
}

/** One push or end: its rows as a batch; on a bad row, the good rows before it first, then the error. */
function* parseStep(step: (rows: SourceRow[]) => void): Generator<SourceRow[], void, undefined> {
  const rows: SourceRow[] = [];
  try {
    step(rows);
  } catch (error) {
    if (rows.length > 0) yield rows;
    throw error;
  }
  if (rows.length > 0) yield rows;
}

/** Every row of the file, one at a time, in file order. Throws ParcelRowError on the first bad row. */
export async function* readParcelFile(
  path: string,
  options: ReadParcelFileOptions = {},
): AsyncGenerator<SourceRow, void, undefined> {
  for await (const rows of readParcelBatches(path, options)) yield* rows;
}
