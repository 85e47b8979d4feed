import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * `count` small polygons (24-gons over Texas) as GeoJSON lines, streamed to `file`: a layer large
 * enough that its import is still under way when a test interrupts it.
 */
export async function writeBigPolygonLayer(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < count; i++) {
    const lon = -106 + (i % 1000) * 0.012;
    const lat = 26 + Math.floor(i / 1000) * 0.0001;
    const ring: string[] = [];
    for (let k = 0; k <= 24; k++) {
      const angle = ((k % 24) / 24) * 2 * Math.PI;
      ring.push(`[${(lon + 0.0003 * Math.cos(angle)).toFixed(7)},${(lat + 0.0003 * Math.sin(angle)).toFixed(7)}]`);
    }
    const line = `{"type":"Feature","properties":{"WETLAND_TYPE":"Lake"},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
