// A prepare engine worker (engine-pool.ts): its own engine over the same current layer versions,
// read from PostgreSQL, answering pages of parcels. Answers go back as the packed arrays of
// EngineAnswer (transferred, not copied) and the page's provenances as plain objects.

import { parentPort, workerData } from 'node:worker_threads';
import { LayerCache } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import type { ParcelMatch } from '@landscreen/point-engine';
import type { PageRequest, PageResponse, WorkerData } from './engine-pool.js';

const { databaseUrl, versionIds, fields } = workerData as WorkerData;
const port = parentPort!;

// The layers' versions load at once and queue for the pool's connections: bulk work, so the
// interactive timeouts (seconds) do not apply.
const database = await openDatabase({ databaseUrl, maxConnections: 2, timeouts: { connectTimeoutMs: 600_000, statementTimeoutMs: 86_400_000, queryTimeoutMs: 86_400_000 } });
try {
  // The layers are read once; the worker needs no connection after that.
  const { engine, versions } = await new LayerCache(database.db).current().finally(() => database.close());
  const loaded = versions.map((version) => version.id).sort();
  if (loaded.join(',') !== [...versionIds].sort().join(',')) {
    throw new Error('the current layer versions changed while prepare was starting: run it again');
  }
  const plan = engine.plan(fields);
  port.on('message', (page: PageRequest) => {
    try {
      const locations = Array.from({ length: page.lons.length }, (_, n) => ({ lon: page.lons[n], lat: page.lats[n] }));
      const parcels = page.keys.map(
        (id, n): ParcelMatch => ({ vintage: page.vintage, parcel: { id, geometry: page.geometries[n] }, match_type: 'exact_intersect', distance_m: 0, radius_m: 0 }),
      );
      const answer = engine.evaluate(locations, plan, { parcels });
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
