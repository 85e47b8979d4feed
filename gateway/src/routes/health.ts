import { Type } from '@sinclair/typebox';
import type { ServiceClients } from '../clients.js';
import { json } from './responses.js';
import type { RouteDef } from './route.js';

const READY_TIMEOUT_MS = 2000;

export const healthRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness',
    tag: 'health',
    security: 'none',
    request: {},
    responses: { 200: json('{"status":"ok","build"} (D32).', Type.Object({ status: Type.Literal('ok'), build: Type.String() })) },
    handler: async ({ deps }) => ({ status: 200, body: { status: 'ok', build: deps.build } }),
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
      200: json('Ready.'),
      503: json('Not ready, with the reason per service.'),
    },
    handler: async ({ deps }) => {
      const services = await checkServices(deps.clients);
      const failing = Object.entries(services).filter(([, service]) => !service.ready);
      if (failing.length === 0) return { status: 200, body: { status: 'ready', build: deps.build, services } };
      return {
        status: 503,
        body: {
          detail: failing.map(([name, service]) => `${name}: ${service.reason}`).join('; '),
          code: 'not_ready',
          services,
        },
      };
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
        return [name, { ready: false, reason: `unreachable: ${(error as Error).message}`, migrations: [] as string[] }] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}
