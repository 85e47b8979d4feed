import type { HandlerContext } from '@connectrpc/connect';
import { fieldsOfGroup } from '@landscreen/field-catalog';
import { callerHeaders } from '@landscreen/rpc';
import { evaluateLocations, type EvaluatePointsFn } from '../fetch/evaluate.js';
import { engineResultObjects, resultsJson } from '../fetch/results-json.js';
import type { LayerCache } from '../layers/layer-cache.js';
import type { ChunkLease } from './chunk-lease.js';

const PARCEL_GROUP = new Set(fieldsOfGroup('parcel_record').map((field) => field.name));

/**
 * A leased chunk's results as NDJSON (one D34 result object per location, input order), computed
 * the way POST /v1/fetch/batch computes a batch, so a run answers exactly what batches of the same
 * points answer: parcel_record fields through the EvaluatePoints implementation on behalf of the
 * run's submitter (LocateParcels searches the parcels that caller may read), every other field
 * straight from the engine, written by fetch/batch's own writers.
 */
export async function evaluateChunk(evaluate: EvaluatePointsFn, layers: LayerCache, lease: ChunkLease, signal: AbortSignal): Promise<string> {
  const located = lease.locations.map(({ lat, lon, id }) => ({ lat, lon, id: id ?? null }));
  if (!lease.fields.some((field) => PARCEL_GROUP.has(field))) {
    const { engine } = await layers.current();
    return `${engineResultObjects(located, await engine.evaluateLoaded(lease.locations, lease.fields)).join('\n')}\n`;
  }
  const call = { requestHeader: new Headers(callerHeaders(lease.caller)), signal } as unknown as HandlerContext;
  const results = await evaluateLocations(evaluate, { locations: lease.locations, fields: lease.fields }, call);
  // One location at a time, so each line is exactly the object fetch/batch writes (without the array's brackets).
  return results.map((result, n) => `${resultsJson([located[n]], [result]).slice(1, -1)}\n`).join('');
}
