import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// The provenance of a prepared vintage's facts, once per field: the layer versions and
// formula version every parcel's fact of that field came from, and the null reason most of its
// nulls share. A parcel's own `provenance` then holds only what differs from it (a null reason as
// a plain string, or a whole entry), not ~200 identical entries per parcel. Null for vintages
// that were imported rather than prepared.
export const up = (db: Kysely<any>) => statements('alter table discovery.vintages add column field_provenance jsonb')(db);

export const down = (db: Kysely<any>) => statements('alter table discovery.vintages drop column field_provenance')(db);
