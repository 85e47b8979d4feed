import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type ProcessDatabase } from '@landscreen/db';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'auth';

export const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;
export type Role = (typeof ROLES)[number];

export interface TenantsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  created_at: Generated<Date>;
}
export interface IdentitiesTable {
  id: Generated<string>;
  email: string;
  created_at: Generated<Date>;
}
export interface MembershipsTable {
  tenant_id: string;
  identity_id: string;
  role: Role;
  created_at: Generated<Date>;
}
export interface LinkRequestsTable {
  id: Generated<number>;
  email: string;
  tenant_slug: string | null;
  client_address: string;
  created_at: Date;
  attempts: Generated<number>;
  claimed_until: Date | null;
  processed_at: Date | null;
  outcome: string | null;
}
export interface MagicLinksTable {
  id: Generated<string>;
  token_digest: Buffer;
  identity_id: string;
  tenant_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}
export interface SessionsTable {
  id: Generated<string>;
  token_digest: Buffer;
  identity_id: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}
export interface ServiceTokensTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  secret_digest: Buffer;
  created_at: Generated<Date>;
  revoked_at: Date | null;
}
export interface RateLimitsTable {
  key: string;
  window_start: Date;
  hits: number;
}

export interface AuthDatabase {
  tenants: TenantsTable;
  identities: IdentitiesTable;
  memberships: MembershipsTable;
  link_requests: LinkRequestsTable;
  magic_links: MagicLinksTable;
  sessions: SessionsTable;
  service_tokens: ServiceTokensTable;
  rate_limits: RateLimitsTable;
}

/** The service's view of the process database: every query lands in the "auth" schema. */
export type AuthDb = Kysely<AuthDatabase>;

/** A transaction on that view: what must commit together (a link consumed and its session). */
export type AuthTransaction = Transaction<AuthDatabase>;

/** The service's view of the process database (made once, where the service or command starts). */
export const authDb = (db: ProcessDatabase): AuthDb => schemaView<AuthDatabase>(db, SCHEMA);
