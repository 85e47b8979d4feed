// The blocks of tiled grid versions the engine has read, in one cache for the process, bounded by
// bytes (LAYER_GRID_CACHE_MB): least recently used blocks go first. A DEM of many gigabytes is
// never held whole; an evaluation loads the blocks its points read (one query per batch of
// them) and holds them while it runs, whatever the cache evicts meanwhile. A block without a
// chunk holds no data (the import stores none for it), and that is remembered too.

import type { GridBlock, GridBlockStore } from '@landscreen/point-engine';
import type { CatalogDb } from '../schema.js';
import { decodeBlock } from './chunk-codec.js';

/**
 * Chunks asked for per query: 8 blocks are 2 MB. PGlite runs a statement on the thread that
 * answers requests, so one of 64 blocks (16 MB) was one stretch of about 120 ms of its CPU there;
 * eight statements of 8 take the same CPU in stretches an eighth as long.
 */
const CHUNKS_PER_QUERY = 8;
/** What an entry costs beside its cells (keys, map slots), and a block without data. */
const ENTRY_OVERHEAD_BYTES = 96;

export class GridBlockCache {
  /** `${version}:${chunk}` → block, least recently used first. */
  private readonly blocks = new Map<string, GridBlock>();
  private readonly loading = new Map<string, Promise<GridBlock>>();
  private bytes = 0;

  constructor(
    private readonly db: CatalogDb,
    readonly budgetBytes: number,
  ) {}

  /** Bytes of the blocks held now. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** The store of one version's blocks (block keys are its chunk numbers). */
  storeFor(versionId: string): GridBlockStore {
    return {
      complete: false,
      peek: (key) => this.peek(versionId, key),
      load: (keys) => this.load(versionId, keys),
    };
  }

  /** Drops a version's blocks (it is no longer current). */
  forget(versionId: string): void {
    const prefix = `${versionId}:`;
    for (const [key, block] of this.blocks) {
      if (!key.startsWith(prefix)) continue;
      this.blocks.delete(key);
      this.bytes -= costOf(block);
    }
  }

  private peek(versionId: string, chunk: number): GridBlock | undefined {
    const key = `${versionId}:${chunk}`;
    const block = this.blocks.get(key);
    if (block === undefined) return undefined;
    // Most recently used last.
    this.blocks.delete(key);
    this.blocks.set(key, block);
    return block;
  }

  private async load(versionId: string, chunks: readonly number[]): Promise<ReadonlyMap<number, GridBlock>> {
    const answers = new Map<number, Promise<GridBlock>>();
    const toRead: number[] = [];
    for (const chunk of chunks) {
      const key = `${versionId}:${chunk}`;
      const known = this.blocks.get(key);
      if (known !== undefined) answers.set(chunk, Promise.resolve(known));
      else if (this.loading.has(key)) answers.set(chunk, this.loading.get(key)!);
      else toRead.push(chunk);
    }
    // One query at a time per load: a batch of scattered points may need thousands of blocks, and
    // must not take every pooled connection (nor wait past the pool's timeout for one).
    let previous: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < toRead.length; from += CHUNKS_PER_QUERY) {
      const batch = toRead.slice(from, from + CHUNKS_PER_QUERY);
      const read = previous.then(() => this.read(versionId, batch));
      previous = read.catch(() => {});
      batch.forEach((chunk) => {
        const key = `${versionId}:${chunk}`;
        const one = read.then((blocks) => blocks.get(chunk) ?? null);
        this.loading.set(key, one);
        answers.set(chunk, one);
        void one.then(
          (block) => this.remember(key, block),
          () => {},
        ).finally(() => this.loading.delete(key));
      });
    }
    const loaded = new Map<number, GridBlock>();
    for (const [chunk, block] of answers) loaded.set(chunk, await block);
    return loaded;
  }

  private async read(versionId: string, chunks: readonly number[]): Promise<Map<number, Float32Array>> {
    const rows = await this.db
      .selectFrom('layer_chunks')
      .select(['chunk_no', 'data'])
      .where('version_id', '=', versionId)
      .where((eb) => eb('chunk_no', '=', eb.fn.any(eb.val([...chunks]))))
      .execute();
    return new Map(rows.map((row) => [row.chunk_no, decodeBlock(row.data)]));
  }

  private remember(key: string, block: GridBlock): void {
    if (this.blocks.has(key)) return;
    this.blocks.set(key, block);
    this.bytes += costOf(block);
    for (const [oldest, evicted] of this.blocks) {
      if (this.bytes <= this.budgetBytes) break;
      this.blocks.delete(oldest);
      this.bytes -= costOf(evicted);
    }
  }
}

function costOf(block: GridBlock): number {
  return ENTRY_OVERHEAD_BYTES + (block === null ? 0 : block.byteLength);
}
