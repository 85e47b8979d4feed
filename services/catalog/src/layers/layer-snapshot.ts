// The engine's layers handed to worker threads (landscreen prepare's engine pool): every loaded
// index as a snapshot of shared typed arrays, posted once in workerData, and an engine rebuilt
// from them in the worker. The layers are read from PostgreSQL and parsed once, in the main
// thread, however many workers screen. A tiled grid too large to hold whole goes over as its
// metadata only: the main thread loads the blocks each page reads and sends them with the page.

import { Engine, VectorLayerIndex, type VectorLayerSnapshot } from '@landscreen/point-engine';
import { gridLayerIndex, gridPartsOf, type GridLayerParts } from './load-layer.js';

export type LayerSnapshot = VectorLayerSnapshot | ({ kind: 'grid' } & GridLayerParts);

/** Snapshots of every layer `engine` holds (grids share their cells' buffer when it is shared already). */
export function snapshotLayers(engine: Engine): LayerSnapshot[] {
  return engine.loaded().map(({ source }) => {
    const index = engine.layer(source)!;
    if (index.kind === 'vector') return index.snapshot();
    const parts = gridPartsOf(index);
    if (!parts) throw new Error(`the grid layer of ${source} was not loaded from a layer version: it cannot be handed over`);
    let values = parts.values;
    if (values !== null && !(values.buffer instanceof SharedArrayBuffer)) {
      values = new Float32Array(new SharedArrayBuffer(values.byteLength));
      values.set(parts.values!);
    }
    return { ...parts, kind: 'grid' as const, values };
  });
}

/** An engine over the layers of `snapshots` (in a worker thread). */
export function engineFromSnapshots(snapshots: readonly LayerSnapshot[]): Engine {
  const engine = new Engine();
  for (const snapshot of snapshots) {
    if (snapshot.kind === 'vector') engine.load(VectorLayerIndex.restore(snapshot));
    else engine.load(gridLayerIndex(snapshot, null));
  }
  return engine;
}
