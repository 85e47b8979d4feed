// Mapbox Vector Tile 2.1 written straight from the features' integer paths with pbf's writer.
// vt-pbf (the serialiser geojson-vt's tiles are written with) wraps every vertex in a Point object
// and every feature in a wrapper, and keys its value cache by string concatenation: on a z10 tile
// of 35,000 parcels it took 1.4-1.8 times as long as building the tile's geometry itself
// (docs/decisions.md, "Vector tiles"). This writes the same bytes' meaning, checked against
// vt-pbf feature by feature in encode.test.ts.

import { PbfWriter } from 'pbf';
import { EXTENT } from './tile-address.js';
import type { TileGeometry } from './tile-geometry.js';

export type TileValue = string | number | boolean;

export interface TileFeature {
  /** Unsigned integer id (the feature's position in its source), when it has one. */
  id?: number;
  geometry: TileGeometry;
  properties: Record<string, TileValue>;
}

export interface TileLayer {
  name: string;
  features: readonly TileFeature[];
}

const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;
const command = (id: number, count: number) => (count << 3) | id;
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** The layer's key and value tables, filled as features name them. */
class Tables {
  readonly keys = new Map<string, number>();
  readonly values: TileValue[] = [];
  private readonly strings = new Map<string, number>();
  private readonly numbers = new Map<number, number>();
  private readonly flags = new Map<boolean, number>();

  key(name: string): number {
    let index = this.keys.get(name);
    if (index === undefined) this.keys.set(name, (index = this.keys.size));
    return index;
  }

  value(value: TileValue): number {
    const table: Map<TileValue, number> = typeof value === 'string' ? this.strings : typeof value === 'number' ? this.numbers : (this.flags as Map<TileValue, number>);
    let index = table.get(value);
    if (index === undefined) {
      table.set(value, (index = this.values.length));
      this.values.push(value);
    }
    return index;
  }
}

/** The geometry's command integers (MoveTo, LineTo, ClosePath with zigzag deltas), appended to `out`. */
export function geometryCommands(geometry: TileGeometry, out: number[] = []): number[] {
  let cx = 0;
  let cy = 0;
  const to = (x: number, y: number) => {
    out.push(zigzag(x - cx), zigzag(y - cy));
    cx = x;
    cy = y;
  };
  if (geometry.type === 1) {
    const flat = geometry.paths[0] ?? [];
    out.push(command(MOVE_TO, flat.length / 2));
    for (let i = 0; i < flat.length; i += 2) to(flat[i]!, flat[i + 1]!);
    return out;
  }
  for (const flat of geometry.paths) {
    out.push(command(MOVE_TO, 1));
    to(flat[0]!, flat[1]!);
    out.push(command(LINE_TO, flat.length / 2 - 1));
    for (let i = 2; i < flat.length; i += 2) to(flat[i]!, flat[i + 1]!);
    if (geometry.type === 3) out.push(command(CLOSE_PATH, 1));
  }
  return out;
}

function writeValue(value: TileValue, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}

function writeLayer(layer: TileLayer, extent: number, pbf: PbfWriter): void {
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  const tables = new Tables();
  for (const feature of layer.features) {
    pbf.writeMessage(
      2,
      (f: TileFeature, out: PbfWriter) => {
        if (f.id !== undefined) out.writeVarintField(1, f.id);
        const tags: number[] = [];
        for (const name in f.properties) {
          const value = f.properties[name];
          if (value === undefined || value === null) continue;
          tags.push(tables.key(name), tables.value(value));
        }
        if (tags.length > 0) out.writePackedVarint(2, tags);
        out.writeVarintField(3, f.geometry.type);
        out.writePackedVarint(4, geometryCommands(f.geometry));
      },
      feature,
    );
  }
  for (const key of tables.keys.keys()) pbf.writeStringField(3, key);
  for (const value of tables.values) pbf.writeMessage(4, writeValue, value);
  pbf.writeVarintField(5, extent);
}

/** A Mapbox Vector Tile (specification 2.1) of the layers. */
export function encodeTile(layers: readonly TileLayer[], extent = EXTENT): Uint8Array {
  const pbf = new PbfWriter();
  for (const layer of layers) pbf.writeMessage(3, (l: TileLayer, out: PbfWriter) => writeLayer(l, extent, out), layer);
  return pbf.finish();
}
