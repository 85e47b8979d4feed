import type { Healthz, NotReady, Ready } from '@landscreen/api-schemas';

type Services = Ready['services'];

/** GET /healthz (D32): alive, and which build. */
export const healthzJson = (build: string): Healthz => ({ status: 'ok', build });

/** GET /readyz: ready, with every service's applied migrations. */
export const readyJson = (build: string, services: Services): Ready => ({ status: 'ready', build, services });

/** GET /readyz, 503: a D2 body naming each service that is not ready and why. */
export function notReadyJson(services: Services): NotReady {
  const failing = Object.entries(services).filter(([, service]) => !service.ready);
  return { detail: failing.map(([name, service]) => `${name}: ${service.reason}`).join('; '), code: 'not_ready', services };
}
