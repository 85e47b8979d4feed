import type { BrowserSessionResponse, LogoutResponse, MeResponse, RequestLinkResponse, VerifyResponse } from '@landscreen/api-schemas';
import type { authv1 } from '@landscreen/proto';
import type { Caller } from '@landscreen/rpc';

/** Always the same answer, member or not (D5). */
export const requestLinkJson = (): RequestLinkResponse => ({ status: 'sent' });

/** A consumed sign-in link (D6): the session, the identity, the tenant and the role. */
export function verifyJson(verified: authv1.VerifyLinkResponse): VerifyResponse {
  return {
    session: { token: verified.session!.token, expires_at: verified.session!.expiresAt },
    identity: { id: verified.identity!.id, email: verified.identity!.email },
    tenant: { slug: verified.tenant!.slug, name: verified.tenant!.name },
    role: verified.role as VerifyResponse['role'],
  };
}

/** A browser session (D40): as a verified link, with the token in a cookie and its CSRF token instead. */
export function browserSessionJson(verified: authv1.VerifyLinkResponse, csrfToken: string): BrowserSessionResponse {
  return {
    identity: { id: verified.identity!.id, email: verified.identity!.email },
    tenant: { slug: verified.tenant!.slug, name: verified.tenant!.name },
    role: verified.role as BrowserSessionResponse['role'],
    expires_at: verified.session!.expiresAt,
    csrf_token: csrfToken,
  };
}

export const logoutJson = (revoked: boolean): LogoutResponse => ({ status: 'logged_out', revoked });

/** The caller (D8); a legacy shared-secret caller acts without an identity. */
export function meJson(caller: Caller): MeResponse {
  return {
    tenant: { slug: caller.tenantSlug, name: caller.tenantName },
    identity: { id: caller.identityId || null, email: caller.email || null },
    role: caller.role as MeResponse['role'],
  };
}
