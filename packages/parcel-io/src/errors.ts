// One error type for everything wrong with a row (or with the file around it): the importer
// reports it with its line and aborts, so a failed import leaves nothing behind (D37).

export class ParcelRowError extends Error {
  override readonly name = 'ParcelRowError';

  constructor(
    /** 1-based line of the file where the offending row starts. */
    readonly line: number,
    /** The problem without the line prefix, for callers that format their own message. */
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

/** A geometry that is malformed or outside WGS84 ranges; readers rethrow it with the line. */
export class GeometryError extends Error {
  override readonly name = 'GeometryError';
}

/** Malformed well-known text; `position` is the 0-based character offset of the problem. */
export class WktError extends Error {
  override readonly name = 'WktError';

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} (at character ${position + 1})`);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
