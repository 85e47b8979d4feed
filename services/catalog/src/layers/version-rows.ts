// The statements an import writes a layer version with, all inside its one transaction: the
// version row first (so chunks can reference it), its chunks, and last the completed row.

import { sql } from 'kysely';
import type { LayerSource } from '@landscreen/field-catalog';
import type { LayerFormat } from '@landscreen/layer-io';
import type { CatalogTransaction } from '../schema.js';

export async function insertVersion(trx: CatalogTransaction, declaration: LayerSource, name: string, format: LayerFormat, fileName: string): Promise<string> {
  const { rows } = await sql<{ id: string }>`
    insert into catalog.layer_versions (seq, source, name, format, file_name, crs, geometry, feature_count)
    values (nextval('catalog.layer_version_seq'), ${declaration.id}, ${name}, ${format}, ${fileName}, '', ${declaration.geometry}, 0)
    returning id`.execute(trx);
  return rows[0].id;
}

// Chunk bytes travel as hex text that the server decodes: PGlite serialises a bytea parameter
// byte by byte in JavaScript (a 2 MB chunk blocked the embedded server's loop for seconds), while
// Buffer's own hex encoding is native and PostgreSQL's decode() is C, in either mode.
const bytes = (data: Buffer) => sql`decode(${data.toString('hex')}, 'hex')`;

export async function insertChunk(trx: CatalogTransaction, versionId: string, chunkNo: number, data: Buffer): Promise<void> {
  await sql`insert into catalog.layer_chunks (version_id, chunk_no, data) values (${versionId}, ${chunkNo}, ${bytes(data)})`.execute(trx);
}

/** Several chunks in one statement (a grid's blocks are many and small). */
export async function insertChunks(trx: CatalogTransaction, versionId: string, chunks: readonly (readonly [number, Buffer])[]): Promise<void> {
  if (chunks.length === 0) return;
  const rows = chunks.map(([chunkNo, data]) => sql`(${versionId}, ${chunkNo}, ${bytes(data)})`);
  await sql`insert into catalog.layer_chunks (version_id, chunk_no, data) values ${sql.join(rows)}`.execute(trx);
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
  await sql`
    update catalog.layer_versions
    set seq = nextval('catalog.layer_version_seq'), feature_count = ${count}, bbox = ${bbox === null ? null : JSON.stringify(bbox)}::jsonb, crs = ${crs},
        grid = ${grid === null ? null : JSON.stringify(grid)}::jsonb, completed_at = clock_timestamp()
    where id = ${versionId}`.execute(trx);
}
