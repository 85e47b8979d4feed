import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { CanonicalSpec } from '@landscreen/buybox-spec';
import { discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import type { BuyBoxesTable } from '../schema.js';

export type BuyBoxRow = Pick<BuyBoxesTable, 'name' | 'description' | 'spec' | 'spec_hash'> & { id: string; created_at: Date; updated_at: Date };

/** D9: a saved buy box as its message (the times keep the row's milliseconds). */
export function buyBoxMessage(row: BuyBoxRow): discoveryv1.BuyBox {
  return create(discoveryv1.BuyBoxSchema, {
    id: row.id,
    name: row.name,
    description: row.description ?? undefined,
    spec: discoveryjson.buyBoxSpecMessage(row.spec as CanonicalSpec),
    specHash: row.spec_hash,
    createdAt: timestampFromDate(new Date(row.created_at)),
    updatedAt: timestampFromDate(new Date(row.updated_at)),
  });
}
