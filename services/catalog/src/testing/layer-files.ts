// Test helper: small layer files written to a temporary directory.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface LayerFiles {
  dir: string;
  write(name: string, contents: string | Uint8Array): Promise<string>;
  remove(): Promise<void>;
}

export async function layerFiles(): Promise<LayerFiles> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'landscreen-layers-'));
  return {
    dir,
    async write(name, contents) {
      const file = path.join(dir, name);
      await writeFile(file, contents);
      return file;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

export interface PointFeature {
  lon: number;
  lat: number;
  properties?: Record<string, unknown>;
}

/** A GeoJSON FeatureCollection of points, one feature per line (so errors name their line). */
export function pointCollection(points: readonly PointFeature[]): string {
  const features = points.map(
    ({ lon, lat, properties = {} }) => JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties }),
  );
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}
