import { parseArgs } from 'node:util';
import { createTenant, findTenant, setMembership } from '@landscreen/auth-service';
import { generateDemoParcels } from '@landscreen/demo-market';
import { entitle, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord } from '@landscreen/parcel-io';
import { UsageError, type Command } from './command.js';
import { progressReporter } from './progress.js';

export const DEMO_TENANT = 'demo';
export const DEMO_EMAIL = 'demo@landscreen.local';
export const DEMO_MARKET = 'demo-tx';

export const demoCommand: Command = {
  words: ['demo'],
  summary: 'Load the synthetic demo market, entitled to the demo tenant',
  usage: 'landscreen demo [--parcels N] [--seed S] [--market SLUG]',
  async run({ database, bus, config, out }, args) {
    const { values } = parseArgs({
      args,
      options: { parcels: { type: 'string', default: '20000' }, seed: { type: 'string', default: '1' }, market: { type: 'string', default: DEMO_MARKET } },
      strict: true,
    });
    const parcels = Number(values.parcels);
    const seed = Number(values.seed);
    if (!Number.isInteger(parcels) || parcels < 1 || parcels > 5_000_000) throw new UsageError('--parcels must be an integer from 1 to 5,000,000');
    if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
    const market = values.market!;
    const progress = progressReporter(out, `generating ${market}`);
    // Generated and mapped in arrays: no await per parcel.
    function* records() {
      let line = 0;
      let batch = [];
      for (const feature of generateDemoParcels({ parcels, seed, market })) {
        batch.push(toParcelRecord({ line: ++line, geometry: feature.geometry, properties: feature.properties }, market));
        if (batch.length === 1000) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    }
    const result = await importVintage(database.db, {
      market,
      name: 'Demo Texas (synthetic)',
      source: `demo seed=${seed} parcels=${parcels}`,
      records: records(),
      onProgress: ({ parcels: loaded }) => progress.update(loaded, loaded / parcels),
    });
    progress.update(result.parcels, 1, true);
    const tenant = (await findTenant(database.db, DEMO_TENANT)) ?? (await createTenant(database.db, DEMO_TENANT, 'Demo Land Co'));
    await setMembership(database.db, DEMO_TENANT, DEMO_EMAIL, 'admin', bus);
    await entitle(database.db, tenant.id, market);
    const base = config.publicUrl;
    out(`market ${market}: ${result.parcels.toLocaleString('en-US')} parcels (vintage ${result.vintageId}), entitled to tenant "${DEMO_TENANT}"`);
    out('try it (dev sessions are on in the embedded default):');
    out(`  export H1='authorization: Bearer dev:${DEMO_EMAIL}' H2='x-tenant: ${DEMO_TENANT}'`);
    out(`  curl -s -H "$H1" -H "$H2" -H 'content-type: application/json' ${base}/v1/buyboxes -d '{"name":"dc","spec":{"markets":["${market}"],"must":[{"field":"acres","op":">=","value":50},{"field":"within_floodplain_polygon","op":"=","value":false,"unknown":"review"}],"preferred":[{"field":"nearest_substation_distance_m","op":"<=","value":3000,"weight":3},{"field":"zoning","op":"=","value":"industrial","weight":1}],"verdict_cutoffs":{"pursue":70,"monitor":40}}}'`);
    out(`  curl -s -H "$H1" -H "$H2" -H 'content-type: application/json' ${base}/v2/discovery/query -d '{"buy_box":"dc","limit":5}'`);
    return 0;
  },
};
