import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, OpenRecord, Timestamp, Uuid } from './building-blocks.js';

/** D8: the roles a member has in a tenant (docs/roles.md). */
export const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;
export const Role = OneOf(ROLES, { description: 'D8; clients gate UI features on it.' });

const TenantRef = Closed({ slug: Type.String(), name: Type.String() });

/** POST /v1/auth/request-link: the same answer whether or not the email is a member (D5). */
export const RequestLinkResponse = Closed({ status: Type.Literal('sent') }, { $id: 'RequestLinkResponse' });
export type RequestLinkResponse = Static<typeof RequestLinkResponse>;

/** POST /v1/auth/verify (D6): session and identity are records the spec calls open. */
export const VerifyResponse = Closed(
  {
    session: OpenRecord({ token: Type.String({ description: 'Shown once; present it as `Authorization: Bearer <token>`.' }), expires_at: Timestamp() }),
    identity: OpenRecord({ id: Uuid(), email: Type.String() }),
    tenant: TenantRef,
    role: Role,
  },
  { $id: 'VerifyResponse' },
);
export type VerifyResponse = Static<typeof VerifyResponse>;

/** POST /v1/auth/session (D40): the session itself is the HttpOnly cookie; the page keeps the CSRF token. */
export const BrowserSessionResponse = Closed(
  {
    identity: OpenRecord({ id: Uuid(), email: Type.String() }),
    tenant: TenantRef,
    role: Role,
    expires_at: Timestamp(),
    csrf_token: Type.String({ description: 'Send it as `x-csrf-token` on every write made with the session cookie.' }),
  },
  { $id: 'BrowserSessionResponse' },
);
export type BrowserSessionResponse = Static<typeof BrowserSessionResponse>;

/** POST /v1/auth/logout: `revoked` is false for legacy and dev sessions, which have no row. */
export const LogoutResponse = Closed({ status: Type.Literal('logged_out'), revoked: Type.Boolean() }, { $id: 'LogoutResponse' });
export type LogoutResponse = Static<typeof LogoutResponse>;

/** GET /v1/me (D8): a legacy shared-secret caller has no identity (both null). */
export const MeResponse = Closed(
  {
    tenant: TenantRef,
    identity: OpenRecord({ id: Nullable(Uuid()), email: Nullable(Type.String()) }),
    role: Role,
  },
  { $id: 'MeResponse' },
);
export type MeResponse = Static<typeof MeResponse>;
