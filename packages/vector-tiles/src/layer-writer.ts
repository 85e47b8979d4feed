// One layer of a Mapbox Vector Tile written feature by feature from command integers and tags,
// with nothing kept per feature: a map tile of thousands of parcels is a selection and this
// writer. The bytes are those encodeTile writes for the same features (layer-writer.test.ts).

import { PbfWriter } from 'pbf';
import { EXTENT } from './tile-address.js';
import type { TileGeometryType } from './tile-geometry.js';
import type { TileValue } from './encode.js';

export class LayerWriter {
  private readonly pbf = new PbfWriter();
  private readonly keys = new Map<string, number>();
  private readonly values: TileValue[] = [];
  private readonly strings = new Map<string, number>();
  private readonly numbers = new Map<number, number>();
  private readonly flags = new Map<boolean, number>();
  // The feature being written, read by writeFeature (one function for every feature, no closure each).
  private type: TileGeometryType = 3;
  private tags: readonly number[] = [];
  private commands: readonly number[] = [];
  private commandCount = 0;
  private readonly writeFeature = (_: unknown, out: PbfWriter) => {
    if (this.tags.length > 0) out.writePackedVarint(2, this.tags as number[]);
    out.writeVarintField(3, this.type);
    // writePackedVarint takes a whole array; the commands buffer is reused, so its length may exceed the count.
    out.writeTag(4, 2);
    out.writeRawMessage(this.writeCommands, undefined);
  };
  private readonly writeCommands = (_: unknown, out: PbfWriter) => {
    for (let i = 0; i < this.commandCount; i++) out.writeVarint(this.commands[i]!);
  };

  constructor(
    readonly name: string,
    readonly extent = EXTENT,
  ) {
    this.pbf.writeVarintField(15, 2);
    this.pbf.writeStringField(1, name);
  }

  /** The key's index in the layer's key table. */
  key(name: string): number {
    let index = this.keys.get(name);
    if (index === undefined) this.keys.set(name, (index = this.keys.size));
    return index;
  }

  /** The value's index in the layer's value table. */
  value(value: TileValue): number {
    const table: Map<TileValue, number> = typeof value === 'string' ? this.strings : typeof value === 'number' ? this.numbers : (this.flags as Map<TileValue, number>);
    let index = table.get(value);
    if (index === undefined) {
      table.set(value, (index = this.values.length));
      this.values.push(value);
    }
    return index;
  }

  /** A feature: its tags (key, value index pairs) and the first `count` of its command integers. */
  add(type: TileGeometryType, commands: readonly number[], count: number, tags: readonly number[]): void {
    this.type = type;
    this.commands = commands;
    this.commandCount = count;
    this.tags = tags;
    this.pbf.writeMessage(2, this.writeFeature, undefined);
  }

  /** The whole tile: this one layer. */
  finish(): Uint8Array {
    for (const key of this.keys.keys()) this.pbf.writeStringField(3, key);
    for (const value of this.values) this.pbf.writeMessage(4, writeValue, value);
    this.pbf.writeVarintField(5, this.extent);
    const layer = this.pbf.finish();
    const tile = new PbfWriter();
    tile.writeBytesField(3, layer);
    return tile.finish();
  }
}

function writeValue(value: TileValue, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(1, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(7, value);
  else if (!Number.isInteger(value)) pbf.writeDoubleField(3, value);
  else if (value < 0) pbf.writeSVarintField(6, value);
  else pbf.writeVarintField(5, value);
}
