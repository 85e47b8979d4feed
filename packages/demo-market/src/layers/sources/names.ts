// Names of the demo layers' features: invented, from the word lists of the parcels' world
// (../names.ts), and fixed by a hash so a feature keeps its name whatever else is generated.

import { SURNAMES, TOWN_ROOTS, TOWN_SUFFIXES } from '../../names.js';
import { hashInts } from '../../random.js';

export function pickBy<T>(items: readonly T[], ...key: number[]): T {
  return items[hashInts(...key) % items.length];
}

export function placeName(...key: number[]): string {
  return `${pickBy(TOWN_ROOTS, 1, ...key)} ${pickBy(TOWN_SUFFIXES, 2, ...key)}`;
}

export function rootName(...key: number[]): string {
  return pickBy(TOWN_ROOTS, 3, ...key);
}

export function surname(...key: number[]): string {
  return pickBy(SURNAMES, 4, ...key);
}

/** The name of river feature `index` of the world: the main river, other rivers and creeks. */
export function riverName(index: number, rank: number): string {
  return `${rootName(0x51, index)} ${rank === 2 ? 'Creek' : 'River'}`;
}
