import { Type, type Static } from '@sinclair/typebox';
import { Closed } from './building-blocks.js';

/** GET /healthz (D32). */
export const Healthz = Closed({ status: Type.Literal('ok'), build: Type.String() }, { $id: 'Healthz' });
export type Healthz = Static<typeof Healthz>;

const ServiceHealth = Closed({
  ready: Type.Boolean(),
  reason: Type.String({ description: 'Why the service is not ready; empty when ready.' }),
  migrations: Type.Array(Type.String(), { description: 'The migrations applied.' }),
});
const Services = Type.Record(Type.String(), ServiceHealth, { description: 'Per service: auth, discovery, pipeline, diligence, catalog.' });

/** GET /readyz, 200: every service's database answers and is migrated for this exact build. */
export const Ready = Closed({ status: Type.Literal('ready'), build: Type.String(), services: Services }, { $id: 'Ready' });
export type Ready = Static<typeof Ready>;

/** GET /readyz, 503: a D2 body with the reason per service. */
export const NotReady = Closed(
  { detail: Type.String(), code: Type.Literal('not_ready'), services: Services },
  { $id: 'NotReady' },
);
export type NotReady = Static<typeof NotReady>;
