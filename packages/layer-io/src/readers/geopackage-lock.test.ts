import { mkdir } from 'node:fs/promises';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLayer } from '../read-layer.js';
import { fixture } from '../testing/fixtures.js';
import { collect, makeTempDir } from '../testing/temp-dir.js';

describe('GeoPackage reading takes no lock beside the file', () => {
  it('reads a file whose earlier reader was killed mid-read (its lock folder left behind)', async () => {
    const dir = await makeTempDir();
    try {
      const file = join(dir.path, 'counties.gpkg');
      await copyFile(fixture('counties-albers.gpkg'), file);
      await mkdir(`${file}.lock`); // what node-sqlite3-wasm leaves when its reader dies
      expect(await collect(readLayer(file))).toHaveLength(254);
    } finally {
      await dir.remove();
    }
  });

  it('two readers of one file at once both read it through', async () => {
    const file = fixture('counties-albers.gpkg');
    const first = readLayer(file)[Symbol.asyncIterator]();
    expect((await first.next()).done).toBe(false); // the first holds the file open
    const second = await collect(readLayer(file));
    let rest = 1;
    while (!(await first.next()).done) rest++;
    expect([rest, second.length]).toEqual([254, 254]);
  });
});
