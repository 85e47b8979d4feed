// One error type for everything wrong with a layer file: the importer reports it and aborts, so
// a failed import leaves nothing behind (D37). The message names the file, and the feature when
// one is at fault, so an operator can find it.

import type { FeaturePosition } from './feature-position.js';

export class LayerReadError extends Error {
  override readonly name = 'LayerReadError';

  constructor(
    readonly file: string,
    /** The reason without the file and position prefix, for callers that format their own message. */
    readonly reason: string,
    /** The offending feature; absent when the file as a whole is at fault (an unknown CRS, say). */
    readonly position?: FeaturePosition,
  ) {
    super(`${file}: ${position === undefined ? '' : `${describePosition(position)}: `}${reason}`);
  }
}

export function describePosition(position: FeaturePosition): string {
  if (position.record !== undefined) return `record ${position.record}`;
  if (position.row !== undefined) return `feature ${position.index} (row ${position.row})`;
  return position.line === undefined ? `feature ${position.index}` : `feature ${position.index} (line ${position.line})`;
}

/** A CRS that cannot be known or used; readers add the file's name (LayerReadError). */
export class CrsError extends Error {
  override readonly name = 'CrsError';
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  // proj4 throws bare strings.
  return typeof error === 'string' ? error : String(error);
}
