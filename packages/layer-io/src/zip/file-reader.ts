// The file under a zip, for yauzl. yauzl's own reader (fd-slicer) shares one descriptor among
// every entry's stream and queues their reads; a stream destroyed while its read waits in that
// queue then reads `context.fd` of null and throws where nobody can catch it, which takes the
// process down (a refused Shapefile closed its .dbf stream while the .shp was being read). Here
// each entry streams through its own fs.ReadStream, which Node closes safely whenever it is
// destroyed; the central directory and local headers are read from one descriptor that closes
// only when yauzl has released every stream.

import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import yauzl from 'yauzl';

export interface ZipFileSource {
  reader: yauzl.RandomAccessReader;
  size: number;
}

export async function zipFileSource(path: string): Promise<ZipFileSource> {
  const handle = await open(path, 'r');
  let size: number;
  try {
    size = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  return { reader: new PathReader(path, handle), size };
}

class PathReader extends yauzl.RandomAccessReader {
  constructor(
    private readonly path: string,
    private readonly handle: FileHandle,
  ) {
    super();
  }

  override _readStreamForRange(start: number, end: number) {
    // fs streams take an inclusive end; yauzl's is exclusive (and never equals start here).
    return createReadStream(this.path, { start, end: end - 1, highWaterMark: 1 << 20 });
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null) => void): void {
    readFully(this.handle, buffer, offset, length, position).then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }

  override close(callback: (error: Error | null) => void): void {
    this.handle.close().then(
      () => callback(null),
      (error: Error) => callback(error),
    );
  }
}

async function readFully(handle: FileHandle, buffer: Buffer, offset: number, length: number, position: number): Promise<void> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, offset + done, length - done, position + done);
    if (bytesRead === 0) throw new Error(`unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}
