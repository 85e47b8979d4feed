import type { AuthContext } from '../context.js';
import { LINK_TTL_MS } from '../context.js';
import { pruneLimits } from '../operations/rate-limit.js';
import { digest, newToken } from '../tokens.js';
import type { Mailer } from './mailer.js';

const CLAIM_MS = 60_000;
const MAX_ATTEMPTS = 5;
const SWEEP_MS = 5_000;
const BATCH = 20;

/**
 * Turns recorded sign-in requests into mailed links, after the request was answered. A request
 * is claimed with a lease so that several replicas never mail the same one; a crash or a mail
 * failure leaves it to be retried (up to 5 attempts) once the lease ends. Requests for emails that
 * are not members of the tenant are closed without mail.
 */
export function createLinkMailer(context: Omit<AuthContext, 'kickMailer'>, mailer: Mailer) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  async function processBatch(): Promise<number> {
    const now = context.clock.now();
    const rows = await context.db
      .updateTable('link_requests')
      .set((eb) => ({ claimed_until: new Date(now.getTime() + CLAIM_MS), attempts: eb('attempts', '+', eb.lit(1)) }))
      .where('id', 'in', (db) =>
        db
          .selectFrom('link_requests')
          .select('id')
          .where('processed_at', 'is', null)
          .where('attempts', '<', MAX_ATTEMPTS)
          .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
          .orderBy('id')
          .limit(BATCH)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id', 'email', 'tenant_slug'])
      .execute();
    for (const request of rows) await handle(request);
    return rows.length;
  }

  async function handle(request: { id: number; email: string; tenant_slug: string | null }) {
    const db = context.db;
    let membership = db
      .selectFrom('identities')
      .innerJoin('memberships', 'memberships.identity_id', 'identities.id')
      .innerJoin('tenants', 'tenants.id', 'memberships.tenant_id')
      .select(['identities.id as identity_id', 'tenants.id as tenant_id', 'tenants.name'])
      .where('identities.email', '=', request.email)
      .orderBy('memberships.created_at')
      .limit(1);
    if (request.tenant_slug) membership = membership.where('tenants.slug', '=', request.tenant_slug);
    const member = await membership.executeTakeFirst();
    if (!member) {
      await close(request.id, 'not_member');
      return;
    }
    const token = newToken();
    const now = context.clock.now();
    await db
      .insertInto('magic_links')
      .values({ token_digest: digest(token), identity_id: member.identity_id, tenant_id: member.tenant_id, created_at: now, expires_at: new Date(now.getTime() + LINK_TTL_MS), used_at: null })
      .execute();
    const link = `${context.config.publicUrl}/auth/verify?token=${token}`;
    try {
      await mailer.send({
        to: request.email,
        subject: `Your landscreen sign-in link for ${member.name}`,
        text: `Sign in to ${member.name} on landscreen:\n\n${link}\n\nThe link works once and expires in 15 minutes. If you did not ask for it, ignore this message.\n`,
      });
    } catch (error) {
      context.logger.warn({ err: error, request: request.id }, 'sign-in mail failed; will retry');
      return;
    }
    await close(request.id, 'sent');
  }

  async function close(id: number, outcome: string) {
    await context.db.updateTable('link_requests').set({ processed_at: context.clock.now(), outcome }).where('id', '=', id).execute();
  }

  async function drain() {
    do {
      again = false;
      try {
        while (!stopped && (await processBatch()) === BATCH) {}
      } catch (error) {
        context.logger.error({ err: error }, 'link mailer failed');
      }
    } while (again && !stopped);
  }

  const kick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => (running = undefined));
  };

  return {
    kick,
    /** Resolves once every pending request has been looked at (tests, shutdown). */
    async idle() {
      while (running) await running;
    },
    start() {
      const sweep = async () => {
        kick();
        await pruneLimits(context.db, context.clock.now()).catch(() => {});
        if (!stopped) timer = setTimeout(sweep, SWEEP_MS).unref();
      };
      timer = setTimeout(sweep, 0).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      while (running) await running;
      await mailer.close();
    },
  };
}
