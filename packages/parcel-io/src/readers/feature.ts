// One GeoJSON Feature (as text) to a SourceRow. Shared by the FeatureCollection and the
// newline-delimited readers so both report the same errors for the same mistakes.

import { GeometryError, ParcelRowError, errorMessage } from '../errors.js';
import { setOwn } from '@landscreen/validation';
import type { SourceRow } from '../types.js';
import { validateGeometry, type GeometryCheck } from '../validate-geometry.js';

export function parseFeature(text: string, line: number, check?: GeometryCheck): SourceRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ParcelRowError(line, `invalid JSON: ${errorMessage(error)}`);
  }
  return featureToRow(value, line, check);
}

export function featureToRow(value: unknown, line: number, check?: GeometryCheck): SourceRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ParcelRowError(line, `expected a GeoJSON Feature object, got ${kind(value)}`);
  }
  const feature = value as { type?: unknown; geometry?: unknown; properties?: unknown; id?: unknown };
  if (feature.type !== 'Feature') {
    const hint = feature.type === 'FeatureCollection' ? ' (a whole FeatureCollection: use the geojson format)' : '';
    throw new ParcelRowError(line, `expected a GeoJSON Feature, got type ${JSON.stringify(feature.type)}${hint}`);
  }
  let properties: Record<string, unknown>;
  if (feature.properties === null || feature.properties === undefined) properties = {};
  else if (typeof feature.properties === 'object' && !Array.isArray(feature.properties)) {
    properties = feature.properties as Record<string, unknown>;
  } else {
    throw new ParcelRowError(line, `feature properties must be an object or null, got ${kind(feature.properties)}`);
  }
  // The Feature's own `id` is data too; it joins the properties (and so free_facts) unless a
  // property already has that name.
  if (feature.id !== undefined && !Object.hasOwn(properties, 'id')) setOwn(properties, 'id', feature.id);
  if (check?.depthLimit !== undefined && deeperThan(feature, check.depthLimit.max)) {
    const { max, setting } = check.depthLimit;
    throw new ParcelRowError(line, `the feature's JSON nests more than ${setting} (${max}) levels deep; raise ${setting} if the file is genuine`);
  }
  let geometry;
  try {
    geometry = validateGeometry(feature.geometry ?? null, check);
  } catch (error) {
    if (error instanceof GeometryError) throw new ParcelRowError(line, `geometry: ${error.message}`);
    throw error;
  }
  return { line, geometry, properties };
}

/**
 * Whether the feature nests more than `max` levels: its properties walked whole (without
 * recursion), its geometry along its first positions only, which is where a hostile file nests
 * and costs nothing per vertex; deeper nesting further along is refused by the geometry's shape
 * check.
 */
function deeperThan(feature: { geometry?: unknown; properties?: unknown }, max: number): boolean {
  let depth = 2; // the feature, its geometry
  for (let item = (feature.geometry as { coordinates?: unknown } | null | undefined)?.coordinates; Array.isArray(item); item = item[0]) {
    if (++depth > max) return true;
  }
  const stack: [unknown, number][] = [[feature.properties, 2]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    if (level > max) return true;
    if (typeof item !== 'object' || item === null) continue;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, level + 1]);
    }
  }
  return false;
}

function kind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
