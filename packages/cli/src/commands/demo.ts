import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTenant, findTenant, setMembership, authDb } from '@landscreen/auth-service';
import { generateDemoParcels } from '@landscreen/demo-market';
import { discoveryDb, entitle, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord } from '@landscreen/parcel-io';
import { loadDemoLayers } from '../demo/demo-layers.js';
import { prepareMarket } from '@landscreen/prepare';
import { UsageError, type CommandImplementation } from './command.js';
import { progressReporter } from './progress.js';

export const DEMO_TENANT = 'demo';
export const DEMO_EMAIL = 'demo@landscreen.local';
export const DEMO_MARKET = 'demo-tx';

/**
 * `landscreen demo`: the synthetic market the way a real one is loaded. Its parcel file carries
 * record facts only (acres, zoning, owner, ...); its point data comes from synthetic layers of
 * every source, written as files and loaded with `import layer`'s code, then `prepare`'s code
 * screens the parcels on them into the vintage that becomes current. Re-running loads a new
 * parcel vintage and prepares it again; layers already current for the same market, seed and
 * size are not imported twice (demo-layers.ts).
 */
export const demoCommand: CommandImplementation = {
  async run({ database, bus, config, out }, args) {
    const { values } = parseArgs({
      args,
      options: {
        parcels: { type: 'string', default: '20000' },
        seed: { type: 'string', default: '1' },
        market: { type: 'string', default: DEMO_MARKET },
        'layers-dir': { type: 'string' },
      },
      strict: true,
    });
    const parcels = Number(values.parcels);
    const seed = Number(values.seed);
    if (!Number.isInteger(parcels) || parcels < 1 || parcels > 5_000_000) throw new UsageError('--parcels must be an integer from 1 to 5,000,000');
    if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
    const market = values.market!;
    const layersDir = path.resolve(values['layers-dir'] ?? path.join(config.dataDir, 'demo-layers', market));
    const started = Date.now();

    out(`1/4 parcels: generating ${parcels.toLocaleString('en-US')} parcels of ${market} (record facts only) and loading them`);
    const progress = progressReporter(out, `loading ${market}`);
    // Generated and mapped in arrays: no await per parcel.
    function* records() {
      let line = 0;
      let batch = [];
      for (const feature of generateDemoParcels({ parcels, seed, market, pointData: false })) {
        batch.push(toParcelRecord({ line: ++line, geometry: feature.geometry, properties: feature.properties }, market));
        if (batch.length === 1000) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    }
    const loaded = await importVintage(discoveryDb(database.db), {
      market,
      name: 'Demo Texas (synthetic)',
      source: `demo seed=${seed} parcels=${parcels}`,
      records: records(),
      onProgress: ({ parcels: count }) => progress.update(count, count / parcels),
    });
    progress.update(loaded.parcels, 1, true);

    out(`2/4 layers: synthetic layers of every source around ${market}, in ${layersDir}`);
    await loadDemoLayers(database.db, { dir: layersDir, market, seed, parcels, out });

    out(`3/4 prepare: screening the parcels on the layers (landscreen prepare --market ${market})`);
    const preparing = progressReporter(out, `preparing ${market}`);
    const prepared = await prepareMarket(database.db, {
      market,
      onStart: ({ fields, uncovered }) => {
        out(`screening ${parcels.toLocaleString('en-US')} parcels on ${fields.length} fields`);
        if (uncovered.length > 0) out(`no layer loaded for ${uncovered.join(', ')}: stored as null (no_coverage)`);
      },
      onProgress: (done) => preparing.update(done.parcels, done.parcels / parcels),
    });
    preparing.update(prepared.parcels, 1, true);

    out(`4/4 tenant: entitling tenant "${DEMO_TENANT}" to ${market}`);
    const tenant = (await findTenant(authDb(database.db), DEMO_TENANT)) ?? (await createTenant(authDb(database.db), DEMO_TENANT, 'Demo Land Co'));
    await setMembership(authDb(database.db), DEMO_TENANT, DEMO_EMAIL, 'admin', bus);
    await entitle(discoveryDb(database.db), tenant.id, market);
    const base = config.publicUrl;
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    out(
      `market ${market}: ${prepared.parcels.toLocaleString('en-US')} parcels with ${prepared.fields.length} point-data fields from layers ` +
        `(vintage ${prepared.vintageId}, prepared from ${loaded.vintageId}), entitled to tenant "${DEMO_TENANT}" — ${seconds} s`,
    );
    out('try it (dev sessions are on in the embedded default):');
    out(`  export H1='authorization: Bearer dev:${DEMO_EMAIL}' H2='x-tenant: ${DEMO_TENANT}'`);
    out(`  curl -s -H "$H1" -H "$H2" -H 'content-type: application/json' ${base}/v1/buyboxes -d '{"name":"dc","spec":{"markets":["${market}"],"must":[{"field":"acres","op":">=","value":50},{"field":"within_floodplain_polygon","op":"=","value":false,"unknown":"review"}],"preferred":[{"field":"nearest_substation_distance_m","op":"<=","value":3000,"weight":3},{"field":"zoning","op":"=","value":"industrial","weight":1}],"verdict_cutoffs":{"pursue":70,"monitor":40}}}'`);
    out(`  curl -s -H "$H1" -H "$H2" -H 'content-type: application/json' ${base}/v2/discovery/query -d '{"buy_box":"dc","limit":5}'`);
    return 0;
  },
};
