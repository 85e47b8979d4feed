// Large generated layer files, written as streams (the generator must not hold them either), and
// a heap probe: what a streaming reader holds shows as heap growth after a full collection.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { writeShapefile } from './shapefile-writer.js';

async function writeLines(path: string, count: number, line: (i: number) => string | Buffer): Promise<void> {
  const out = createWriteStream(path);
  for (let i = 0; i < count; i++) {
    if (!out.write(line(i))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** `count` point features, one per line, spread over a degree around 30°N 97°W. */
export function writeLargeNdjson(path: string, count: number): Promise<void> {
  return writeLines(path, count, (i) => {
    const lon = -97.5 + (i % 1000) / 1000;
    const lat = 30 + Math.floor(i / 1000) / 1_000_000;
    return `{"type":"Feature","properties":{"name":"substation ${i}","max_voltage_kv":${i % 500}},"geometry":{"type":"Point","coordinates":[${lon},${lat}]}}\n`;
  });
}

/**
 * A point Shapefile of `count` records in EPSG:3857 (so every record is reprojected): the .shp and
 * .dbf are written record by record, their headers from a one-record file of the same layout.
 */
export async function writeLargeShapefile(stem: string, count: number): Promise<void> {
  const fields = [{ name: 'NAME', type: 'C' as const, length: 16 }];
  const one = writeShapefile('point', fields, [{ shape: [0, 0], attributes: { NAME: 'x' } }]);
  const shpRecord = one.shp.length - 100;
  const dbfHeader = one.dbf.length - 2 - 17; // minus the record (1 + 16 bytes) and the end byte
  const shpHeader = Buffer.from(one.shp.subarray(0, 100));
  shpHeader.writeInt32BE((100 + shpRecord * count) / 2, 24);
  [-11_000_000, 3_400_000, -10_800_000, 3_600_000].forEach((v, i) => shpHeader.writeDoubleLE(v, 36 + 8 * i));
  const dbfStart = Buffer.from(one.dbf.subarray(0, dbfHeader + 1));
  dbfStart.writeUInt32LE(count, 4);
  await writeLines(`${stem}.shp`, count + 1, (i) => {
    if (i === 0) return shpHeader;
    const record = Buffer.from(one.shp.subarray(100));
    record.writeInt32BE(i, 0);
    record.writeDoubleLE(-11_000_000 + (i % 1000) * 200, 12);
    record.writeDoubleLE(3_400_000 + Math.floor(i / 1000) * 0.5, 20);
    return record;
  });
  await writeLines(`${stem}.dbf`, count + 2, (i) => {
    if (i === 0) return dbfStart;
    if (i === count + 1) return Buffer.from([0x1a]);
    return Buffer.from(` ${`site ${i}`.padEnd(16)}`, 'latin1');
  });
  await writeLines(`${stem}.prj`, 1, () =>
    'PROJCS["WGS 84 / Pseudo-Mercator",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Mercator_1SP"],PARAMETER["central_meridian",0],PARAMETER["scale_factor",1],PARAMETER["false_easting",0],PARAMETER["false_northing",0],UNIT["metre",1],EXTENSION["PROJ4","+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +nadgrids=@null +wktext +no_defs"],AUTHORITY["EPSG","3857"]]',
  );
}

/** V8's full collection, made callable at run time (no --expose-gc on the command line needed). */
export function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Streams `features` to the end, sampling the heap after a full collection every `every` items;
 * answers the largest growth over the heap before the first item, in bytes.
 */
export async function peakHeapGrowth<T>(features: AsyncIterable<T>, every: number): Promise<{ growth: number; count: number }> {
  const gc = collector();
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let count = 0;
  for await (const _ of features) {
    if (++count % every === 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  }
  return { growth: peak, count };
}
