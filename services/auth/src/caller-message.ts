import type { Role } from './schema.js';

/** The caller as this service builds it; the Connect runtime turns it into an authv1.Caller. */
export interface CallerMessage {
  tenant: { id: string; slug: string; name: string };
  identity: { id: string; email: string };
  role: Role | 'service';
  kind: 'session' | 'dev' | 'legacy' | 'service_token';
  sessionId: string;
}
