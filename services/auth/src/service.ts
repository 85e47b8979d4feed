import type { Subscription } from '@landscreen/events';
import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { listenForInvalidations } from './cache-invalidation.js';
import { authRoutes } from './connect.js';
import { limitsFrom, type AuthContext, type AuthLimits } from './context.js';
import { authenticate } from './handlers/authenticate.js';
import { logout } from './handlers/logout.js';
import { requestLink } from './handlers/request-link.js';
import { verifyLink } from './handlers/verify-link.js';
import { createLinkMailer } from './mail/link-mailer.js';
import { mailboxMailer, smtpMailer, type Mailer } from './mail/mailer.js';
import { migrations } from './migrations/index.js';
import { authDb, SCHEMA } from './schema.js';
import { SessionCache } from './session-cache.js';
import { TenantCache } from './tenant-cache.js';

export interface AuthServiceOptions {
  limits?: Partial<AuthLimits>;
  mailer?: Mailer;
}

export function createAuthService(deps: ServiceDeps, options: AuthServiceOptions = {}): ServiceModule & { mailerIdle(): Promise<void> } {
  const base = { db: authDb(deps.db), bus: deps.bus, clock: deps.clock, config: deps.config, logger: deps.logger.child({ service: 'auth' }), limits: { ...limitsFrom(deps.config), ...options.limits }, sessions: new SessionCache(), tenants: new TenantCache() };
  const mailer = options.mailer ?? (deps.config.smtpUrl ? smtpMailer(deps.config.smtpUrl) : mailboxMailer(deps.config.dataDir, deps.clock));
  const linkMailer = createLinkMailer(base, mailer);
  const context: AuthContext = { ...base, kickMailer: linkMailer.kick };
  let invalidations: Subscription | undefined;
  return {
    name: 'auth',
    schema: SCHEMA,
    migrations,
    routes: authRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      requestLink: requestLink(context),
      verifyLink: verifyLink(context),
      authenticate: authenticate(context),
      logout: logout(context),
    }),
    start: async () => {
      // Listening before the first request is answered: no invalidation can slip past this replica.
      invalidations = await listenForInvalidations(deps.bus, context.sessions);
      await linkMailer.start();
    },
    stop: async () => {
      await invalidations?.stop();
      await linkMailer.stop();
    },
    mailerIdle: () => linkMailer.idle(),
  };
}
