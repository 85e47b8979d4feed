import type { Kysely, Transaction } from 'kysely';
import { schemaView, type Narrowed, type ProcessDatabase } from '@landscreen/db';
import type * as tables from './tables.generated.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'auth';

export const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;
export type Role = (typeof ROLES)[number];

// The tables as the migrations make them (`tables.generated.ts`, written by `npm run
// generate:tables`; CI fails when it is stale), narrowed where the code knows more.
export type TenantsTable = tables.AuthTenants;
export type IdentitiesTable = tables.AuthIdentities;
export type MembershipsTable = Narrowed<tables.AuthMemberships, { role: Role }>;
export type LinkRequestsTable = tables.AuthLinkRequests;
export type MagicLinksTable = tables.AuthMagicLinks;
export type SessionsTable = tables.AuthSessions;
export type ServiceTokensTable = tables.AuthServiceTokens;
export type RateLimitsTable = tables.AuthRateLimits;

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
