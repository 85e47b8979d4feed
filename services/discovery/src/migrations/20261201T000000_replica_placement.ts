import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Which discovery replica holds which market in memory (placement/). A replica's row is its lease,
// renewed by its heartbeat; a market's owner row points at a replica, so a replica whose lease
// lapsed and is deleted frees every market it held at once (the cascade), and the survivors claim
// them. Ownership places memory, not authority: vintages are immutable, so any replica answering a
// market answers alike.
export const up = (db: Kysely<any>) =>
  statements(
    `create table discovery.replicas (
      id text primary key,
      url text not null,
      weight double precision not null check (weight > 0),
      started_at timestamptz not null,
      lease_expires_at timestamptz not null
    )`,
    `create table discovery.market_owners (
      market_id uuid primary key references discovery.markets (id) on delete cascade,
      replica_id text not null references discovery.replicas (id) on delete cascade,
      since timestamptz not null
    )`,
    'create index market_owners_replica on discovery.market_owners (replica_id)',
  )(db);

export const down = (db: Kysely<any>) => statements('drop table discovery.market_owners', 'drop table discovery.replicas')(db);
