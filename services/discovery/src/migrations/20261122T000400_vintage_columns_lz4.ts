import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A vintage's stored ranking index is tens of megabytes of float64 and int32 columns per million
// parcels. PostgreSQL's default TOAST compression (pglz) squeezed it 4× but took ~12 s of a
// million-parcel import; lz4 squeezes it as well in a sixth of the time (docs/benchmarks.md).
// Servers built without lz4 (PGlite among them) keep pglz.
export const up = (db: Kysely<any>) =>
  statements(
    `do $$ begin
       alter table discovery.vintage_columns alter column data set compression lz4;
     exception when feature_not_supported then null;
     end $$`,
  )(db);

export const down = (db: Kysely<any>) => statements('alter table discovery.vintage_columns alter column data set compression default')(db);
