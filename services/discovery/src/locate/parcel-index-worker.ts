// A worker thread that turns a stored parcel index's bytes into what a service draws tiles from
// (restored-parcel-index.ts), off the service's event loop: the bytes come in transferred, the
// typed arrays go back transferred. One index per worker; the worker ends after answering.

import { parentPort, workerData } from 'node:worker_threads';
import { decodeParcelIndex } from './parcel-index-blob.js';
import { joinParts } from './packed-columns.js';
import { ParcelIndex } from './parcel-index.js';
import { restoredParts, transferList } from './restored-parcel-index.js';
import type { RestoreRequest, RestoreAnswer } from './restore-in-worker.js';

const { parts: stored, vintageId } = workerData as RestoreRequest;
let answer: RestoreAnswer;
let transfer: ArrayBuffer[] = [];
try {
  const decoded = decodeParcelIndex(joinParts(stored), vintageId);
  ParcelIndex.checkStored(decoded);
  // The shapes are views into the whole blob, JSON sections included: copied out, so that only
  // the arrays a service reads stay in memory once the blob is dropped.
  const s = decoded.shapes;
  const shapes = { ...s, shapeKinds: s.shapeKinds.slice(), coordStarts: s.coordStarts.slice(), coords: s.coords.slice(), pathStarts: s.pathStarts.slice(), paths: s.paths.slice(), polygonStarts: s.polygonStarts.slice(), polygons: s.polygons.slice(), boxes: s.boxes.slice() };
  const parts = restoredParts({ ...decoded, shapes, singlePart: decoded.singlePart.slice() });
  answer = { ok: true, parts };
  transfer = transferList(parts);
} catch (error) {
  answer = { ok: false, name: (error as Error).name, constructorName: (error as Error).constructor?.name ?? 'Error', message: (error as Error).message };
}
parentPort!.postMessage(answer, transfer);
