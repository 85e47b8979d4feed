import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Tokens and secrets are stored only as SHA-256 digests (D4, D5, D8).
export const up = (db: Kysely<any>) =>
  statements(
    `create table auth.tenants (
      id uuid primary key default gen_random_uuid(),
      slug text not null unique,
      name text not null,
      created_at timestamptz not null default now()
    )`,
    `create table auth.identities (
      id uuid primary key default gen_random_uuid(),
      email text not null unique check (email = lower(email)),
      created_at timestamptz not null default now()
    )`,
    `create table auth.memberships (
      tenant_id uuid not null references auth.tenants (id) on delete cascade,
      identity_id uuid not null references auth.identities (id) on delete cascade,
      role text not null check (role in ('admin', 'analyst', 'viewer', 'worker')),
      created_at timestamptz not null default now(),
      primary key (tenant_id, identity_id)
    )`,
    'create index memberships_identity on auth.memberships (identity_id, created_at)',
    `create table auth.link_requests (
      id bigint generated always as identity primary key,
      email text not null,
      tenant_slug text,
      client_address text not null,
      created_at timestamptz not null,
      attempts integer not null default 0,
      claimed_until timestamptz,
      processed_at timestamptz,
      outcome text
    )`,
    'create index link_requests_pending on auth.link_requests (id) where processed_at is null',
    `create table auth.magic_links (
      id uuid primary key default gen_random_uuid(),
      token_digest bytea not null unique,
      identity_id uuid not null references auth.identities (id) on delete cascade,
      tenant_id uuid not null references auth.tenants (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`,
    `create table auth.sessions (
      id uuid primary key default gen_random_uuid(),
      token_digest bytea not null unique,
      identity_id uuid not null references auth.identities (id) on delete cascade,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`,
    `create table auth.service_tokens (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references auth.tenants (id) on delete cascade,
      name text not null,
      secret_digest bytea not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz,
      unique (tenant_id, name)
    )`,
    `create table auth.rate_limits (
      key text not null,
      window_start timestamptz not null,
      hits integer not null,
      primary key (key, window_start)
    )`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop table auth.rate_limits',
    'drop table auth.service_tokens',
    'drop table auth.sessions',
    'drop table auth.magic_links',
    'drop table auth.link_requests',
    'drop table auth.memberships',
    'drop table auth.identities',
    'drop table auth.tenants',
  )(db);
