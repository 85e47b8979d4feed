import { Code, ConnectError } from '@connectrpc/connect';
import { Healthz, NotReady, Ready } from '@landscreen/api-schemas';
import type { ServiceClients } from '../clients.js';
import { errors, json } from './responses.js';
import type { RouteDef } from './route.js';
import { healthzJson, notReadyJson, readyJson } from '../views/health.js';

/**
 * Each service's Health call gets this long (the services are asked at once), so /readyz answers
 * within 2 s whatever the database does: a black-holed one is "no answer within 1200 ms".
 */
const READY_TIMEOUT_MS = 1200;

export const healthRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness',
    tag: 'health',
    security: 'none',
    request: {},
    responses: { 200: json('{"status":"ok","build"} (D32).', Healthz), ...errors([]) },
    handler: async ({ deps }) => ({ status: 200, body: healthzJson(deps.build) }),
  },
  {
    method: 'GET',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: every service\'s database answers and is migrated for this exact build',
    tag: 'health',
    security: 'none',
    request: {},
    responses: {
      200: json('Ready: every service with its applied migrations.', Ready),
      ...errors([], { 503: json('not_ready, with the reason per service.', NotReady) }),
    },
    handler: async ({ deps }) => {
      const services = await checkServices(deps.clients);
      const ready = Object.values(services).every((service) => service.ready);
      return ready ? { status: 200, body: readyJson(deps.build, services) } : { status: 503, body: notReadyJson(services) };
    },
  },
];

async function checkServices(clients: ServiceClients) {
  const entries = await Promise.all(
    (Object.keys(clients) as (keyof ServiceClients)[]).map(async (name) => {
      try {
        const health = await clients[name].health({}, { timeoutMs: READY_TIMEOUT_MS });
        return [name, { ready: health.ready, reason: health.reason, migrations: health.appliedMigrations }] as const;
      } catch (error) {
        // The transport's own text can name addresses: /readyz is public, so it says what, not how.
        const reason = ConnectError.from(error).code === Code.DeadlineExceeded ? `no answer within ${READY_TIMEOUT_MS} ms` : 'unreachable: the service does not answer';
        return [name, { ready: false, reason, migrations: [] as string[] }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
