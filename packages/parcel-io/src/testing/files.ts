// Test helpers: fixture files in a private temp dir (nothing large is committed), and a way to
// feed a parser arbitrary chunk sizes so every row boundary case is exercised.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowParser } from '../readers/row-parser.js';
import type { SourceRow } from '../types.js';

export interface TempDir {
  path: string;
  write(name: string, content: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function makeTempDir(prefix = 'parcel-io-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return {
    path,
    async write(name, content) {
      const file = join(path, name);
      await writeFile(file, content);
      return file;
    },
    remove: () => rm(path, { recursive: true, force: true }),
  };
}

/** Runs `text` through a fresh parser in chunks of `size` bytes (the last one shorter). */
export function parseInChunks(parser: RowParser, text: string | Buffer, size: number): SourceRow[] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const rows: SourceRow[] = [];
  for (let i = 0; i < bytes.length; i += size) parser.push(bytes.subarray(i, i + size), rows);
  parser.end(rows);
  return rows;
}

/** Chunk sizes that split rows, strings, escapes and UTF-8 sequences in every way. */
export const CHUNK_SIZES = [1, 2, 3, 5, 7, 16, 61, 1 << 20];

/** 1-based line on which `needle` first occurs in `text` (the fixture's own line numbers). */
export function lineOf(text: string, needle: string, from = 0): number {
  const at = text.indexOf(needle, from);
  if (at < 0) throw new Error(`fixture has no ${JSON.stringify(needle)}`);
  return text.slice(0, at).split('\n').length;
}

/** Catches the error `fn` throws (sync), for assertions on its fields. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
