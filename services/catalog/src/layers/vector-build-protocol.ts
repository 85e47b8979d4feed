// What the thread loading layers and the vector-build worker say to each other. Several layer
// versions may be built at once (the cache loads a few in parallel), told apart by task number.
// A stored chunk travels as a transferred buffer (moved, not copied); the built parts come back on
// shared buffers (shared, not copied).

import type { SourceId } from '@landscreen/field-catalog';
import type { VectorLayerParts } from '@landscreen/point-engine';

export type BuildRequest =
  | { kind: 'begin'; task: number; source: SourceId; version: string }
  /** One stored chunk of the version, in chunk order. */
  | { kind: 'chunk'; task: number; data: Uint8Array }
  /** Every chunk was sent: build the index. */
  | { kind: 'end'; task: number }
  /** The load failed part-way: forget the task. */
  | { kind: 'abandon'; task: number };

export type BuildAnswer =
  | { kind: 'built'; task: number; parts: VectorLayerParts }
  | { kind: 'failed'; task: number; name: string; message: string; position: number | null };
