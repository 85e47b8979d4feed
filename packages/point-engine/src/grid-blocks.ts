// Where a grid's cells come from. A grid is cut into square blocks of `blockSize` cells a side
// (the last row and column of blocks clipped to the grid), each addressed by a number the store
// gives meaning to (the catalog: the chunk it is stored in). A store may hold every block in
// memory (a grid read whole) or only some (a DEM of many gigabytes, loaded block by block into a
// bounded cache): the engine asks which are resident, has the missing ones loaded before an
// evaluation, and holds the blocks it uses for that evaluation, so a block evicted meanwhile from
// the store's cache is still there for it.

/** A block's cells, row-major (its own width: the block size, or less at the grid's right edge); null: no cell holds data. */
export type GridBlock = Float32Array | null;

export interface GridBlockStore {
  /** Whether every block is resident (nothing ever needs loading). */
  readonly complete: boolean;
  /** The block if it is in memory now; undefined when it must be loaded. */
  peek(key: number): GridBlock | undefined;
  /** Loads blocks (from storage), answering each of `keys`; the caller holds them as long as it needs. */
  load(keys: readonly number[]): Promise<ReadonlyMap<number, GridBlock>>;
}

/** The blocks one evaluation reads, by key: held for it, whatever the store's cache does. */
export type GridBlockView = (key: number) => GridBlock;

export class GridBlocksNotLoadedError extends Error {
  override readonly name = 'GridBlocksNotLoadedError';
  constructor(source: string, key: number) {
    super(`grid block ${key} of ${source} is not in memory: evaluate with Engine.evaluateLoaded, which loads the blocks first`);
  }
}

/** A store over blocks already in memory (a grid read whole is one block). */
export class ResidentBlocks implements GridBlockStore {
  readonly complete = true;

  constructor(private readonly blocks: ReadonlyMap<number, GridBlock>) {}

  peek(key: number): GridBlock | undefined {
    // A block never stored holds no data.
    return this.blocks.get(key) ?? null;
  }

  async load(keys: readonly number[]): Promise<ReadonlyMap<number, GridBlock>> {
    return new Map(keys.map((key) => [key, this.peek(key)!]));
  }
}
