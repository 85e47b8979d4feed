// Index files for tests: an index written to a temporary file and read back lazily.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeIndexFile, readIndexFile } from './index-file.js';
import type { VintageIndex } from './vintage-index.js';

export const TEST_FINGERPRINT = 'f'.repeat(64);

export async function writeIndexFile(index: VintageIndex, file: string, fingerprint = TEST_FINGERPRINT): Promise<void> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of encodeIndexFile(index, fingerprint)) chunks.push(chunk);
  writeFileSync(file, Buffer.concat(chunks));
}

/** A directory for index files, and a way to have an index as a lazy copy read from one. */
export function indexFiles(prefix: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), `landscreen-${prefix}-`));
  return {
    dir,
    /** The index written to a file of its own and opened: keys resident, columns not. */
    async lazyCopy(index: VintageIndex): Promise<VintageIndex> {
      const file = path.join(dir, `${randomUUID()}.index`);
      await writeIndexFile(index, file);
      return readIndexFile(file, index.vintageId, TEST_FINGERPRINT);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
