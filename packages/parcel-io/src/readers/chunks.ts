// The file as a sequence of Buffers, with progress. One stream, read as the consumer pulls:
// `for await` on a Readable applies backpressure, so at most a chunk or two is in memory.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';

export interface ReadProgress {
  /** Bytes of the file handed to the parser so far. */
  bytesRead: number;
  /** Size of the file when reading started. */
  totalBytes: number;
}

export type ProgressListener = (progress: ReadProgress) => void;

/** 1 MiB: large enough that per-chunk overhead vanishes, small enough to keep memory flat. */
export const DEFAULT_CHUNK_SIZE = 1 << 20;

export async function* readChunks(
  path: string,
  chunkSize = DEFAULT_CHUNK_SIZE,
  onProgress?: ProgressListener,
): AsyncGenerator<Buffer> {
  const { size } = await stat(path);
  const stream = createReadStream(path, { highWaterMark: chunkSize });
  let bytesRead = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytesRead += chunk.length;
      onProgress?.({ bytesRead, totalBytes: size });
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}
