import { setImmediate as nextTurn } from 'node:timers/promises';
import type { HandlerContext } from '@connectrpc/connect';
import { fieldsOfGroup } from '@landscreen/field-catalog';
import { ResultWriter } from '@landscreen/fetch-results';
import { callerHeaders } from '@landscreen/rpc';
import { evaluateLocations, type EvaluatePointsFn } from '../fetch/evaluate.js';
import { answerFetchResults, engineFetchResults } from '../fetch/fetch-values.js';
import type { LayerCache } from '../layers/layer-cache.js';
import type { ChunkLease } from './chunk-lease.js';

const PARCEL_GROUP = new Set(fieldsOfGroup('parcel_record').map((field) => field.name));

/**
 * Locations evaluated between two turns of the event loop. The embedded runs worker shares its
 * thread with the gateway: a 1,000-location chunk of 20 fields evaluated at once held the loop
 * for 100-200 ms on a loaded machine (and a whole run, chained through promises that never let
 * a timer or a socket in, for 11 s); a slice of 100 stays in the tens of milliseconds whatever
 * RUNS_CHUNK_SIZE is. docs/decisions.md, "Isolation: heavy work and the event loop".
 */
export const EVALUATION_SLICE = 100;

/**
 * A leased chunk's results as NDJSON (one D34 result object per location, input order), computed
 * the way POST /v1/fetch/batch computes a batch, so a run answers exactly what batches of the same
 * points answer: parcel_record fields through the EvaluatePoints implementation on behalf of the
 * run's submitter (LocateParcels searches the parcels that caller may read), every other field
 * straight from the engine, as the same FetchResult messages, each line written by the writer of
 * fetch/batch's result objects. Evaluated a slice at a time,
 * yielding to the event loop before each, and given up (the signal's reason thrown) as soon as
 * `signal` aborts: a stopping worker or a cancelled run wastes at most one slice.
 */
export async function evaluateChunk(evaluate: EvaluatePointsFn, layers: LayerCache, lease: ChunkLease, signal: AbortSignal): Promise<string> {
  const located = lease.locations.map(({ lat, lon, id }) => ({ lat, lon, id: id ?? null }));
  const withParcels = lease.fields.some((field) => PARCEL_GROUP.has(field));
  const call = { requestHeader: new Headers(callerHeaders(lease.caller)), signal } as unknown as HandlerContext;
  const { engine } = withParcels ? { engine: undefined } : await layers.current();
  const writer = new ResultWriter(lease.fields);
  let lines = '';
  for (let start = 0; start < located.length; start += EVALUATION_SLICE) {
    await nextTurn();
    signal.throwIfAborted();
    const slice = located.slice(start, start + EVALUATION_SLICE);
    const results = engine
      ? engineFetchResults(slice, await engine.evaluateLoaded(lease.locations.slice(start, start + EVALUATION_SLICE), lease.fields))
      : answerFetchResults(slice, await evaluateLocations(evaluate, { locations: slice, fields: lease.fields }, call));
    lines += writer.lines(results);
  }
  return lines;
}
