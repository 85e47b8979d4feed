// What the feature-reading worker and the importing thread say to each other. Chunks travel as
// transferred buffers (moved, not copied); the importer hands out credits so the reader never
// runs more than a few chunks ahead of the inserts, and memory stays bounded whatever the file.

import type { FeatureReadRequest, FeatureSummary } from './feature-chunks.js';

export type WorkerMessage =
  | { kind: 'chunk'; data: Uint8Array; features: number; fraction?: number }
  | { kind: 'done'; summary: FeatureSummary }
  | { kind: 'error'; name: string; message: string };

/** The importer took a chunk: the reader may cut one more. */
export interface CreditMessage {
  kind: 'credit';
}

export interface WorkerInput {
  request: FeatureReadRequest;
  /** Chunks the reader may cut before its first credit. */
  credits: number;
}
