// The per-feature limits every format shares, applied by readLayer to each feature in its file's
// CRS: the size of each attribute value, the positions of its geometry, and the nesting of its
// properties. Iterative walks with an early exit, so a hostile feature costs no more than the
// limit it breaks.

import type { GeoJSONGeometry } from '@landscreen/parcel-io';
import type { FeaturePosition } from '../types.js';
import { limitExceeded, type ImportLimits } from './import-limits.js';

const encoder = new TextEncoder();

export function checkFeature(
  file: string,
  geometry: GeoJSONGeometry,
  properties: Record<string, unknown>,
  limits: ImportLimits,
  position: FeaturePosition,
): void {
  const vertices = vertexCount(geometry, limits.maxVertices);
  if (vertices > limits.maxVertices) {
    throw limitExceeded(file, 'maxVertices', limits.maxVertices, `its geometry has more than ${limits.maxVertices.toLocaleString('en-US')} positions`, position);
  }
  for (const [name, value] of Object.entries(properties)) {
    const bytes = valueBytes(value, limits.maxAttributeBytes);
    if (bytes > limits.maxAttributeBytes) {
      throw limitExceeded(
        file,
        'maxAttributeBytes',
        limits.maxAttributeBytes,
        `attribute ${JSON.stringify(name)} holds ${bytes > limits.maxAttributeBytes * 4 ? 'at least ' : ''}${bytes.toLocaleString('en-US')} bytes`,
        position,
      );
    }
    if (typeof value === 'object' && value !== null && nestingDepth(value, limits.maxDepth) > limits.maxDepth) {
      throw limitExceeded(file, 'maxDepth', limits.maxDepth, `attribute ${JSON.stringify(name)} is nested more than ${limits.maxDepth} levels deep`, position);
    }
  }
}

/** Positions in the geometry, counted up to just past `max` (an early exit for a hostile one). */
function vertexCount(geometry: GeoJSONGeometry, max: number): number {
  switch (geometry.type) {
    case 'Point':
      return 1;
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates.length;
    case 'MultiLineString':
    case 'Polygon': {
      let count = 0;
      for (const line of geometry.coordinates) if ((count += line.length) > max) break;
      return count;
    }
    case 'MultiPolygon': {
      let count = 0;
      for (const polygon of geometry.coordinates) {
        for (const ring of polygon) count += ring.length;
        if (count > max) break;
      }
      return count;
    }
    default:
      return genericVertexCount((geometry as { coordinates?: unknown }).coordinates, max);
  }
}

/** Any nesting of arrays (a geometry kind the switch does not know): walked iteratively. */
function genericVertexCount(coordinates: unknown, max: number): number {
  const stack: unknown[] = [coordinates];
  let count = 0;
  while (stack.length > 0 && count <= max) {
    const item = stack.pop();
    if (!Array.isArray(item)) continue;
    if (item.length > 0 && typeof item[0] === 'number') count++;
    else for (const child of item) stack.push(child);
  }
  return count;
}

/** A value's size as stored (UTF-8 of a string, JSON of an object); past 4 × `max`, its length (a lower bound) without encoding it. */
function valueBytes(value: unknown, max: number): number {
  if (typeof value === 'string') {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: short strings need no encoding to be cleared.
    if (value.length * 3 <= max) return value.length;
    if (value.length > max * 4) return value.length;
    return encoder.encode(value).length;
  }
  if (typeof value !== 'object' || value === null) return 0;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    // Too deep to serialise: the depth check refuses it.
    return 0;
  }
  return text.length > max * 4 ? text.length : encoder.encode(text).length;
}

/** How deeply arrays and objects nest in `value`, walked up to just past `max`. */
export function nestingDepth(value: unknown, max: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > max) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}
