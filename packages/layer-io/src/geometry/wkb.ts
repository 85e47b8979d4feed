// Well-known binary (OGC Simple Features, ISO and EWKB dimension flags) to GeoJSON geometry, in
// the CRS it was written in. GeoPackage stores geometries as WKB behind a short header; the parse
// is a DataView walk with no copies, because it runs once per feature of multi-million-feature
// layers. Curves and collections have no GeoJSON counterpart the engine takes, so they are refused
// with the ogr2ogr option that linearises them.

import type { GeoJSONGeometry, Position } from '@landscreen/parcel-io';

export class WkbError extends Error {
  override readonly name = 'WkbError';
}

const TYPE_NAMES: Readonly<Record<number, string>> = {
  7: 'GeometryCollection',
  8: 'CircularString',
  9: 'CompoundCurve',
  10: 'CurvePolygon',
  11: 'MultiCurve',
  12: 'MultiSurface',
  13: 'Curve',
  14: 'Surface',
  15: 'PolyhedralSurface',
  16: 'TIN',
  17: 'Triangle',
};

/** Null for an empty geometry (an empty point is written as NaN coordinates). */
export function wkbToGeometry(bytes: Uint8Array, offset = 0): GeoJSONGeometry | null {
  const reader = new WkbReader(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset);
  return reader.geometry();
}

class WkbReader {
  private little = true;
  private hasZ = false;
  private hasM = false;

  constructor(
    private readonly view: DataView,
    private at: number,
  ) {}

  geometry(): GeoJSONGeometry | null {
    const type = this.header();
    switch (type) {
      case 1: {
        const point = this.position();
        return Number.isNaN(point[0]) && Number.isNaN(point[1]) ? null : { type: 'Point', coordinates: point };
      }
      case 2:
        return nonEmpty({ type: 'LineString', coordinates: this.positions() });
      case 3:
        return nonEmpty({ type: 'Polygon', coordinates: this.rings() });
      case 4:
        return nonEmpty({ type: 'MultiPoint', coordinates: this.parts(1, () => this.position()) });
      case 5:
        return nonEmpty({ type: 'MultiLineString', coordinates: this.parts(2, () => this.positions()) });
      case 6:
        return nonEmpty({ type: 'MultiPolygon', coordinates: this.parts(3, () => this.rings()) });
      default: {
        const name = TYPE_NAMES[type];
        if (name === undefined) throw new WkbError(`unknown WKB geometry type ${type}`);
        throw new WkbError(
          `a ${name} has no GeoJSON counterpart the engine reads; convert the layer first (ogr2ogr -nlt CONVERT_TO_LINEAR, or -explodecollections)`,
        );
      }
    }
  }

  /** Byte order and type; the dimension flags of ISO (1000s) and EWKB (high bits) both count. */
  private header(): number {
    if (this.at + 5 > this.view.byteLength) throw new WkbError('the WKB ends early');
    this.little = this.view.getUint8(this.at) === 1;
    let type = this.view.getUint32(this.at + 1, this.little);
    this.at += 5;
    this.hasZ = (type & 0x80000000) !== 0;
    this.hasM = (type & 0x40000000) !== 0;
    if ((type & 0x20000000) !== 0) this.at += 4; // an EWKB SRID
    type &= 0x0fffffff;
    const dimensions = Math.floor(type / 1000);
    if (dimensions === 1 || dimensions === 3) this.hasZ = true;
    if (dimensions === 2 || dimensions === 3) this.hasM = true;
    return type % 1000;
  }

  private count(): number {
    if (this.at + 4 > this.view.byteLength) throw new WkbError('the WKB ends early');
    const n = this.view.getUint32(this.at, this.little);
    this.at += 4;
    return n;
  }

  private position(): Position {
    const stride = 16 + (this.hasZ ? 8 : 0) + (this.hasM ? 8 : 0);
    if (this.at + stride > this.view.byteLength) throw new WkbError('the WKB ends early');
    const x = this.view.getFloat64(this.at, this.little);
    const y = this.view.getFloat64(this.at + 8, this.little);
    const position: Position = this.hasZ ? [x, y, this.view.getFloat64(this.at + 16, this.little)] : [x, y];
    this.at += stride;
    return position;
  }

  private positions(): Position[] {
    const n = this.count();
    const stride = 16 + (this.hasZ ? 8 : 0) + (this.hasM ? 8 : 0);
    if (this.at + n * stride > this.view.byteLength) throw new WkbError('the WKB ends early');
    const positions = new Array<Position>(n);
    for (let i = 0; i < n; i++) positions[i] = this.position();
    return positions;
  }

  private rings(): Position[][] {
    const n = this.count();
    const rings = new Array<Position[]>(n);
    for (let i = 0; i < n; i++) rings[i] = this.positions();
    return rings;
  }

  /** The members of a Multi*, each a full WKB geometry of `type` with its own header. */
  private parts<T>(type: number, read: () => T): T[] {
    const n = this.count();
    const parts: T[] = [];
    for (let i = 0; i < n; i++) {
      const partType = this.header();
      if (partType !== type) throw new WkbError(`a multi-geometry holds a WKB type ${partType} where type ${type} belongs`);
      const part = read();
      if (type === 1 && Number.isNaN((part as Position)[0])) continue;
      parts.push(part);
    }
    return parts;
  }
}

function nonEmpty(geometry: GeoJSONGeometry): GeoJSONGeometry | null {
  return geometry.coordinates.length === 0 ? null : geometry;
}
