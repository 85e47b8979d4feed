// Batches of 64 locations or more are answered in Hilbert-curve order (spatial-order.ts) and packed
// back at each location's row: a batch must answer exactly what each location answers alone.

import { describe, expect, it } from 'vitest';
import { Engine, buildVectorLayer } from './engine.js';
import { answerOrder } from './spatial-order.js';
import { boxPolygon, feature, point } from './testing/shapes.js';

describe('answer order', () => {
  it('is a permutation of the positions, the identity under 64 locations', () => {
    const lons = Float64Array.from({ length: 500 }, (_, i) => -97 + ((i * 7919) % 1000) / 1000);
    const lats = Float64Array.from({ length: 500 }, (_, i) => 30 + ((i * 104729) % 997) / 997);
    const order = answerOrder(lons, lats, 500);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect([...order]).not.toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect([...answerOrder(lons, lats, 63)]).toEqual(Array.from({ length: 63 }, (_, i) => i));
  });

  it('a batch of 300 locations answers what each location answers alone', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('hifld_substations', 'v1', Array.from({ length: 40 }, (_, i) => feature(point(-97 + (i % 8) * 0.05, 30 + Math.floor(i / 8) * 0.05), { name: `S${i}`, max_voltage_kv: 69 + i }))));
    engine.load(buildVectorLayer('usfws_nwi', 'v2', Array.from({ length: 30 }, (_, i) => feature(boxPolygon([-97 + i * 0.01, 30 + i * 0.005, -96.995 + i * 0.01, 30.004 + i * 0.005]), { wetland_type: `T${i % 3}` }))));
    const fields = ['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'substations_within_radius_count', 'intersects_wetland', 'wetland_type', 'nearest_wetland_distance_m'];
    const locations = Array.from({ length: 300 }, (_, i) => ({ lon: -97.05 + ((i * 7919) % 300) / 600, lat: 29.98 + ((i * 104729) % 293) / 1000 }));
    const batch = engine.evaluate(locations, fields);
    locations.forEach((location, n) => expect(batch.record(n)).toEqual(engine.evaluate([location], fields).record(0)));
  });
});
