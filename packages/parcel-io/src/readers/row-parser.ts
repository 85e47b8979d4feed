// The contract every format parser fulfils: bytes in, completed rows out. Parsers keep their
// own state between chunks, so a row may straddle any number of chunks and nothing but the
// unfinished row is ever held; that is what keeps memory flat whatever the file size.

import type { SourceRow } from '../types.js';

export interface RowParser {
  /**
   * Feeds the next chunk of the file and appends the rows it completes to `out`. On a bad row it
   * throws ParcelRowError, with the good rows before it already in `out`.
   */
  push(chunk: Buffer, out: SourceRow[]): void;
  /** Signals the end of the file: appends the last rows, or throws if the file is truncated. */
  end(out: SourceRow[]): void;
}
