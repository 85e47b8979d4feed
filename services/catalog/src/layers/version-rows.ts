// The statements an import writes a layer version with, all inside its one transaction: the
// version row first (so chunks can reference it), its chunks, and last the completed row.

import type { ExpressionBuilder } from 'kysely';
import { isEmbedded } from '@landscreen/db';
import type { LayerSource } from '@landscreen/field-catalog';
import type { LayerFormat } from '@landscreen/layer-io';
import { SCHEMA, type CatalogDatabase, type CatalogTransaction } from '../schema.js';
import type { StoredGridMeta } from './grid-meta.js';

/** A fresh `seq` from the schema's sequence (the column has no default). */
const nextSeq = <TB extends keyof CatalogDatabase>(eb: ExpressionBuilder<CatalogDatabase, TB>) => eb.fn<number>('nextval', [eb.val(`${SCHEMA}.layer_version_seq`)]);

export async function insertVersion(trx: CatalogTransaction, declaration: LayerSource, name: string, format: LayerFormat, fileName: string): Promise<string> {
  const row = await trx
    .insertInto('layer_versions')
    .values((eb) => ({
      seq: nextSeq(eb),
      source: declaration.id,
      name,
      format,
      file_name: fileName,
      crs: '',
      geometry: declaration.geometry,
      feature_count: 0,
    }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

// On PostgreSQL a Buffer parameter travels as it is (node-postgres sends it in binary format):
// hex-encoding each chunk, and writing twice its bytes to the socket, was the importing thread's
// largest cost. On PGlite the bytes travel as hex text that the server decodes: PGlite serialises
// a bytea parameter byte by byte in JavaScript (a 2 MB chunk blocked the embedded server's loop
// for seconds), while Buffer's own hex encoding is native and PostgreSQL's decode() is C.
const bytes = <TB extends keyof CatalogDatabase>(eb: ExpressionBuilder<CatalogDatabase, TB>, data: Buffer, embedded: boolean) =>
  embedded ? eb.fn<Uint8Array>('decode', [eb.val(data.toString('hex')), eb.val('hex')]) : eb.val<Uint8Array>(data);

export async function insertChunk(trx: CatalogTransaction, versionId: string, chunkNo: number, data: Buffer): Promise<void> {
  await insertChunks(trx, versionId, [[chunkNo, data]]);
}

/** Several chunks in one statement (a grid's blocks are many and small). */
export async function insertChunks(trx: CatalogTransaction, versionId: string, chunks: readonly (readonly [number, Buffer])[]): Promise<void> {
  if (chunks.length === 0) return;
  const embedded = isEmbedded(trx);
  await trx
    .insertInto('layer_chunks')
    .values((eb) => chunks.map(([chunkNo, data]) => ({ version_id: versionId, chunk_no: chunkNo, data: bytes(eb, data, embedded) })))
    .execute();
}

/**
 * The import's last statement: the final counts, and a fresh `seq`, so that of two imports of a
 * source running at once, the one that finished last is current.
 */
export async function completeVersion(
  trx: CatalogTransaction,
  versionId: string,
  count: number,
  bbox: [number, number, number, number] | null,
  crs: string,
  grid: object | null,
): Promise<void> {
  await trx
    .updateTable('layer_versions')
    .set((eb) => ({
      seq: nextSeq(eb),
      feature_count: count,
      bbox: eb.cast<[number, number, number, number] | null>(eb.val(bbox === null ? null : JSON.stringify(bbox)), 'jsonb'),
      crs,
      grid: eb.cast<StoredGridMeta | null>(eb.val(grid === null ? null : JSON.stringify(grid)), 'jsonb'),
      completed_at: eb.fn('clock_timestamp'),
    }))
    .where('id', '=', versionId)
    .execute();
}
