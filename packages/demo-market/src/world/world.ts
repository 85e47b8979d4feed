// The synthetic world the parcels are laid on: terrain, water, towns and infrastructure, all
// derived from the seed. It is built once per (seed, size) and only read afterwards; parcels
// never go into it, so its memory does not grow with the number of parcels generated.
//
// Each part draws from its own random stream, so tuning, say, the number of creeks does not move
// every town and power line.

import { hashInts, Random } from '../random.js';
import { buildHydrology, type Hydrology, type RiverLine } from './hydrology.js';
import { buildNetworks, type Networks } from './networks.js';
import { buildSettlements, type Settlements } from './settlements.js';
import { TerrainField } from './terrain.js';

export interface World {
  seed: number;
  /** The world is the square [-halfKm, halfKm]^2 around the core (features run 10 km beyond). */
  halfKm: number;
  terrain: TerrainField;
  settlements: Settlements;
  hydrology: Hydrology;
  riverLines: RiverLine[];
  networks: Networks;
  /** Phase of the drought pattern's north-south swing. */
  droughtPhase: number;
}

const STREAM = { terrain: 1, settlements: 2, hydrology: 3, networks: 4, climate: 5 } as const;

export function buildWorld(seed: number, halfKm: number): World {
  const stream = (id: number): Random => new Random(hashInts(seed, 0x5eed, id));
  const settlements = buildSettlements(stream(STREAM.settlements), halfKm);
  const { hydrology, lines } = buildHydrology(stream(STREAM.hydrology), halfKm);
  return {
    seed,
    halfKm,
    terrain: new TerrainField(stream(STREAM.terrain)),
    settlements,
    hydrology,
    riverLines: lines,
    networks: buildNetworks(stream(STREAM.networks), halfKm, settlements.towns),
    droughtPhase: stream(STREAM.climate).uniform(0, 2 * Math.PI),
  };
}

let cached: World | undefined;

/**
 * The world for (seed, halfKm), reusing the last one built: the CLI, the GeoJSON writer and the
 * tests ask for the same world repeatedly, and building one takes a noticeable fraction of a second.
 */
export function worldFor(seed: number, halfKm: number): World {
  if (cached?.seed !== seed || cached.halfKm !== halfKm) cached = buildWorld(seed, halfKm);
  return cached;
}
