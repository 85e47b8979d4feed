// A prepare engine worker (engine-pool.ts): its own engine over the main thread's layers (shared
// snapshots), answering pages of parcels. Answers go back as the packed arrays of
// EngineAnswer (transferred, not copied) and the page's provenances as plain objects.

import { parentPort, workerData } from 'node:worker_threads';
import { engineFromSnapshots } from '@landscreen/catalog-service';
import type { ParcelMatch } from '@landscreen/point-engine';
import type { PageRequest, PageResponse, WorkerData } from './engine-pool.js';

const { layers, fields } = workerData as WorkerData;
const port = parentPort!;

try {
  // The main thread's layers, rebuilt from shared buffers: no database, no parsing.
  const engine = engineFromSnapshots(layers);
  const plan = engine.plan(fields);
  port.on('message', (page: PageRequest) => {
    try {
      const locations = Array.from({ length: page.lons.length }, (_, n) => ({ lon: page.lons[n], lat: page.lats[n] }));
      const parcels = page.keys.map(
        (id, n): ParcelMatch => ({ vintage: page.vintage, parcel: { id, geometry: page.geometries[n] }, match_type: 'exact_intersect', distance_m: 0, radius_m: 0 }),
      );
      const answer = engine.evaluate(locations, plan, { parcels, gridBlocks: page.gridBlocks });
      const response: PageResponse = {
        id: page.id,
        kinds: answer.kinds,
        numbers: answer.numbers,
        strings: [...answer.strings],
        reasonCodes: answer.reasonCodes,
        provenanceIds: answer.provenanceIds,
        provenances: answer.provenances.map((p) => ({ layers: p.layers.map((l) => ({ source: l.source, layer_version: l.layer_version })), formula_version: p.formula_version })),
      };
      port.postMessage(response, [answer.kinds.buffer, answer.numbers.buffer, answer.reasonCodes.buffer, answer.provenanceIds.buffer] as never);
    } catch (error) {
      port.postMessage({ id: page.id, error: (error as Error).message });
    }
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ failed: (error as Error).message });
}
