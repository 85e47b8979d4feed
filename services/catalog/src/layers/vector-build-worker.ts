// Worker thread: decodes a stored vector layer version's chunks as they arrive and builds its
// index (the point engine's parts), so that neither the JSON parsing, the packing, the tree nor
// their garbage ever runs on the thread answering requests. Started by vector-builds.ts.

import { parentPort } from 'node:worker_threads';
import { buildVectorLayer, LayerBuildError, type FeatureInput } from '@landscreen/point-engine';
import type { SourceId } from '@landscreen/field-catalog';
import { decodeFeatures } from './chunk-codec.js';
import type { BuildAnswer, BuildRequest } from './vector-build-protocol.js';

const port = parentPort!;
const tasks = new Map<number, { source: SourceId; version: string; features: FeatureInput[] }>();

const answer = (message: BuildAnswer) => port.postMessage(message);

port.on('message', (request: BuildRequest) => {
  if (request.kind === 'begin') {
    tasks.set(request.task, { source: request.source, version: request.version, features: [] });
    return;
  }
  const task = tasks.get(request.task);
  if (!task) return;
  try {
    if (request.kind === 'chunk') {
      for (const feature of decodeFeatures(request.data)) task.features.push(feature);
      return;
    }
    tasks.delete(request.task);
    if (request.kind === 'abandon') return;
    const parts = buildVectorLayer(task.source, task.version, task.features).toParts();
    answer({ kind: 'built', task: request.task, parts });
  } catch (error) {
    tasks.delete(request.task);
    const { name, message } = error as Error;
    answer({ kind: 'failed', task: request.task, name, message, position: error instanceof LayerBuildError ? error.position : null });
  }
});
