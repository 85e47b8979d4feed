import type { Logger } from '@landscreen/rpc';

/** What of a vintage is held: its ranking index, its parcel index, its cached rankings, the map's views of them. */
export type MemoryPart = 'ranking-index' | 'parcel-index' | 'rankings' | 'tile-views';

interface Held {
  marketId: string;
  parts: Map<MemoryPart, number>;
}

/**
 * The memory budget of one discovery process (DISCOVERY_MEMORY_BUDGET), over everything it holds
 * per vintage. The caches report what they hold of which vintage and when they use it; past the
 * budget, first the parts that can be read again cheaply are shed (a ranking index's columns read
 * from a local file, least recently used first, across vintages: onShed), then the least recently
 * used vintages are dropped whole — every cache drops its part of it — until the rest fits. The
 * vintage just used is never dropped: a market larger than the budget is still answered (alone).
 * Reloading a dropped vintage reads the local index cache.
 */
export class IndexMemory {
  /** In use order: the first is the least recently used. */
  private readonly held = new Map<string, Held>();
  private readonly droppers: ((vintageId: string) => void)[] = [];
  private readonly shedders: ((excess: number) => void)[] = [];
  private bytes = 0;
  private warnedAlone = false;
  /** Set while shedding: a shedder's resize must not start another round. */
  private enforcing = false;

  constructor(
    readonly budgetBytes: number,
    private readonly logger?: Logger,
  ) {}

  /** A cache's way of dropping its part of a vintage. */
  onDrop(drop: (vintageId: string) => void): void {
    this.droppers.push(drop);
  }

  /**
   * A cache's way of shedding parts it can read again, `excess` bytes' worth if it can (it tells
   * what it holds after with resize).
   */
  onShed(shed: (excess: number) => void): void {
    this.shedders.push(shed);
  }

  /** Sets what a part of a held vintage takes now, without counting it as a use (a column read or shed). */
  resize(vintageId: string, part: MemoryPart, bytes: number): void {
    const held = this.held.get(vintageId);
    if (!held || !this.assign(vintageId, held, part, bytes)) return;
    this.enforce(vintageId);
  }

  /** The vintage was used now. */
  use(vintageId: string): void {
    const held = this.held.get(vintageId);
    if (!held) return;
    this.held.delete(vintageId);
    this.held.set(vintageId, held);
  }

  /** Sets what a part of a vintage takes (0: nothing any more), marks it used, and keeps within the budget. */
  set(vintageId: string, marketId: string, part: MemoryPart, bytes: number): void {
    let held = this.held.get(vintageId);
    if (!held && bytes <= 0) return;
    if (!held) {
      held = { marketId, parts: new Map() };
      this.held.set(vintageId, held);
    }
    if (!this.assign(vintageId, held, part, bytes)) return;
    this.use(vintageId);
    this.enforce(vintageId);
  }

  /** Counts `bytes` for the part; false when nothing of the vintage is held any more (no cache has anything to drop). */
  private assign(vintageId: string, held: Held, part: MemoryPart, bytes: number): boolean {
    this.bytes += bytes - (held.parts.get(part) ?? 0);
    if (bytes > 0) held.parts.set(part, bytes);
    else held.parts.delete(part);
    if (held.parts.size > 0) return true;
    this.held.delete(vintageId);
    return false;
  }

  /** Adds to (or, negative, takes from) what a part of a held vintage takes. */
  add(vintageId: string, part: MemoryPart, bytes: number): void {
    const held = this.held.get(vintageId);
    if (!held) return;
    this.set(vintageId, held.marketId, part, (held.parts.get(part) ?? 0) + bytes);
  }

  /** Bytes held now. */
  total(): number {
    return this.bytes;
  }

  /** Whether a vintage is held (any part of it). */
  holds(vintageId: string): boolean {
    return this.held.has(vintageId);
  }

  /** Vintages held, least recently used first, with their bytes. */
  vintages(): { vintageId: string; marketId: string; bytes: number }[] {
    return [...this.held].map(([vintageId, held]) => ({ vintageId, marketId: held.marketId, bytes: sum(held.parts) }));
  }

  /** Drops every vintage of a market (it moved to another replica). */
  dropMarket(marketId: string): void {
    for (const [vintageId, held] of [...this.held]) if (held.marketId === marketId) this.drop(vintageId);
  }

  drop(vintageId: string): void {
    const held = this.held.get(vintageId);
    if (!held) return;
    this.held.delete(vintageId);
    this.bytes -= sum(held.parts);
    for (const drop of this.droppers) drop(vintageId);
  }

  private enforce(keep: string): void {
    if (this.enforcing || this.bytes <= this.budgetBytes) return;
    this.enforcing = true;
    try {
      for (const shed of this.shedders) if (this.bytes > this.budgetBytes) shed(this.bytes - this.budgetBytes);
    } finally {
      this.enforcing = false;
    }
    for (const [vintageId, held] of [...this.held]) {
      if (this.bytes <= this.budgetBytes) return;
      if (vintageId === keep) continue;
      this.logger?.info({ vintageId, marketId: held.marketId, bytes: sum(held.parts), budget: this.budgetBytes }, 'dropping the least recently used vintage indexes (DISCOVERY_MEMORY_BUDGET)');
      this.drop(vintageId);
    }
    if (this.bytes > this.budgetBytes && !this.warnedAlone) {
      this.warnedAlone = true;
      this.logger?.warn({ vintageId: keep, bytes: this.bytes, budget: this.budgetBytes }, 'one vintage alone takes more than DISCOVERY_MEMORY_BUDGET; it is held anyway');
    }
  }
}

const sum = (parts: Map<MemoryPart, number>) => [...parts.values()].reduce((total, bytes) => total + bytes, 0);
