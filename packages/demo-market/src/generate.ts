// generateDemoParcels: the demo market as a lazy, re-iterable sequence of GeoJSON features.
// Nothing is held beyond the current block of lots and the (parcel-independent) world, so a
// million-parcel market streams in constant memory.

import { fillCatalogFacts } from './catalog-facts.js';
import { ParcelFacts } from './facts.js';
import { latOf, lonOf, ringAreaSquareMeters, roundDegrees, SQUARE_METERS_PER_ACRE } from './geo.js';
import { AccountNumbers, apnFor, BlockStreets, companyName, MAX_DISTINCT_APNS, ownerName } from './identity.js';
import { BLOCK_KM, cutBlock, spiralBlocks } from './layout.js';
import { fillParcelRecord } from './parcel-record.js';
import { hash4, hashInts, Random } from './random.js';
import { round3 } from './round.js';
import { Site } from './site.js';
import { Surroundings } from './surroundings.js';
import { urbanInfluence } from './world/settlements.js';
import { worldFor, type World } from './world/world.js';

export interface DemoMarketOptions {
  /** Number of parcels; default 20,000. */
  parcels?: number;
  /** Any safe integer; the same seed gives the same market, byte for byte. Default 1. */
  seed?: number;
  /** Market slug the features are meant for; default "demo-tx". It does not change the facts. */
  market?: string;
  /**
   * Whether features carry the point-data catalog facts (DEMO_CATALOG_FIELDS) the generator
   * derives from its world; default true. `landscreen demo` asks for false: a parcel file carries
   * only record facts (acres, zoning, owner, ...), and the point data comes from the demo's layers
   * through `landscreen prepare`. The other facts are the same either way.
   */
  pointData?: boolean;
}

export interface DemoPolygon {
  type: 'Polygon';
  coordinates: number[][][];
}

export interface DemoFeature {
  type: 'Feature';
  geometry: DemoPolygon;
  properties: Record<string, unknown>;
}

export const DEFAULT_PARCELS = 20_000;
export const DEFAULT_SEED = 1;
export const DEFAULT_MARKET = 'demo-tx';
/** Beyond this the world gets slow to build and big to hold; APNs would stay unique up to 10^8. */
export const MAX_PARCELS = Math.min(10_000_000, MAX_DISTINCT_APNS);

/**
 * Half-size of the world, km. Fixed for markets up to about a million parcels (which reach about
 * 220 km from the core), so those markets are prefixes of one another: the first 1,000 parcels of
 * a 20,000-parcel market are the 1,000-parcel market. Larger markets get a larger world.
 */
export function worldHalfSizeKm(parcels: number): number {
  return Math.max(250, 0.25 * Math.sqrt(parcels));
}

/** The demo market: iterate it (as often as you like) to get its parcels. */
export class DemoParcels implements Iterable<DemoFeature> {
  constructor(
    readonly parcels: number,
    readonly seed: number,
    readonly market: string,
    readonly pointData = true,
  ) {}

  [Symbol.iterator](): Iterator<DemoFeature> {
    return new ParcelIterator(this.parcels, this.seed, this.pointData);
  }
}

export function generateDemoParcels(options: DemoMarketOptions = {}): DemoParcels {
  const { parcels = DEFAULT_PARCELS, seed = DEFAULT_SEED, market = DEFAULT_MARKET, pointData = true } = options;
  if (!Number.isSafeInteger(parcels) || parcels < 0 || parcels > MAX_PARCELS) {
    throw new RangeError(`parcels must be an integer from 0 to ${MAX_PARCELS}, got ${parcels}`);
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  if (typeof market !== 'string' || market.length < 1 || market.length > 100) {
    throw new RangeError('market must be a string of 1 to 100 characters');
  }
  return new DemoParcels(parcels, seed, market, pointData);
}

/**
 * Walks the spiral of blocks and makes one parcel per `next()`. A hand-written iterator rather
 * than a generator function: resuming a generator with this many live variables costs more than
 * reading them from fields, and this runs for every parcel.
 */
class ParcelIterator implements Iterator<DemoFeature> {
  private readonly world: World;
  private readonly accounts: AccountNumbers;
  private readonly blockSeed: number;
  private readonly portfolio: string[];
  private readonly blocks = spiralBlocks();
  private readonly site = new Site();
  private readonly facts = new ParcelFacts();
  private index = 0;
  // The current block: its random stream, surroundings, streets and lots, and the next lot.
  private random = new Random(0);
  private readonly around: Surroundings;
  private streets: BlockStreets | undefined;
  private lots: number[] = [];
  private lot = 0;

  constructor(
    private readonly parcels: number,
    seed: number,
    private readonly pointData: boolean,
  ) {
    this.world = worldFor(seed, worldHalfSizeKm(parcels));
    this.accounts = new AccountNumbers(hashInts(seed, 0xa9));
    this.blockSeed = hashInts(seed, 0xb10c);
    this.portfolio = portfolioOwners(seed);
    this.around = new Surroundings(this.world);
  }

  next(): IteratorResult<DemoFeature, undefined> {
    if (this.index >= this.parcels) return { done: true, value: undefined };
    while (this.lot >= this.lots.length) this.enterBlock();
    return { done: false, value: this.parcel() };
  }

  private enterBlock(): void {
    const [bx, by] = this.blocks.next().value as [number, number];
    const cx = bx * BLOCK_KM;
    const cy = by * BLOCK_KM;
    const h = BLOCK_KM / 2;
    this.random = new Random(hash4(this.blockSeed, 0xb10c, bx, by));
    this.around.update({ x0: cx - h, y0: cy - h, x1: cx + h, y1: cy + h });
    this.lots = cutBlock(this.random, cx, cy, this.around.towns);
    this.streets = new BlockStreets(this.random, urbanInfluence(this.around.towns, cx, cy), Math.sqrt(cx * cx + cy * cy), cy > 0, cx > 0);
    this.lot = 0;
  }

  private parcel(): DemoFeature {
    const { lots, facts, site, random, world } = this;
    const around = this.around;
    const k = this.lot;
    this.lot += 8;
    const first = [roundDegrees(lonOf(lots[k])), roundDegrees(latOf(lots[k + 1]))];
    const ring = [
      first,
      [roundDegrees(lonOf(lots[k + 2])), roundDegrees(latOf(lots[k + 3]))],
      [roundDegrees(lonOf(lots[k + 4])), roundDegrees(latOf(lots[k + 5]))],
      [roundDegrees(lonOf(lots[k + 6])), roundDegrees(latOf(lots[k + 7]))],
      [first[0], first[1]],
    ];
    // Acres from the polygon as written (rounded vertices), on the sphere: what a GIS would measure.
    facts.acres = round3(ringAreaSquareMeters(ring) / SQUARE_METERS_PER_ACRE);
    const x = (lots[k] + lots[k + 2] + lots[k + 4] + lots[k + 6]) / 4;
    const y = (lots[k + 1] + lots[k + 3] + lots[k + 5] + lots[k + 7]) / 4;
    site.measure(world, around, x, y);
    facts.apn = apnFor(random, this.accounts.take());
    this.index++;
    facts.address = this.streets!.addressOf(random);
    fillCatalogFacts(facts, site, random, world, around);
    fillParcelRecord(facts, site, random);
    facts.owner_name = ownerName(random, this.portfolio, site.district, facts.zoning === 'agricultural');
    return { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: this.pointData ? facts.toProperties() : facts.toRecordProperties() };
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** A market's big landholders: land funds and developers that own many parcels each. */
function portfolioOwners(seed: number): string[] {
  const random = new Random(hashInts(seed, 0x0a7));
  return Array.from({ length: 40 }, () => companyName(random));
}
