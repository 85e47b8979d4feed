import { describe, expect, it } from 'vitest';
import { classRange, distanceFactor, featureEstimate, REACH_M } from './capacity-model.js';
import { estimateHostingCapacity } from './estimate.js';
import type { GridFeature } from './grid-features.js';

describe('hosting-capacity model v1', () => {
  it('maps voltages onto their class, an unknown voltage onto distribution', () => {
    expect([765, 500, 345, 230, 161, 138, 115, 69, 34.5, null].map((kv) => classRange(kv))).toEqual([
      { low: 300, high: 1000 },
      { low: 300, high: 1000 },
      { low: 150, high: 500 },
      { low: 75, high: 250 },
      { low: 30, high: 100 },
      { low: 30, high: 100 },
      { low: 30, high: 100 },
      { low: 10, high: 40 },
      { low: 2, high: 10 },
      { low: 2, high: 10 },
    ]);
  });

  it('scales linearly with distance down to nothing at the 10 km reach', () => {
    expect(REACH_M).toBe(10_000);
    expect([0, 2_500, 10_000, 25_000].map(distanceFactor)).toEqual([1, 0.75, 0, 0]);
    // 345 kV at 1,109.4 m: 150 x 0.88906 = 133.36, 500 x 0.88906 = 444.53.
    expect(featureEstimate(345, 1109.4)).toEqual({ low: 133.4, high: 444.5 });
    expect(featureEstimate(138, 5_000)).toEqual({ low: 15, high: 50 });
  });
});

describe('the estimate of a point', () => {
  const feature = (kind: GridFeature['kind'], distanceM: number, voltageKv: number | null): GridFeature => ({
    kind,
    source: kind === 'substation' ? 'hifld_substations' : 'hifld_transmission_lines',
    layerVersion: 'v',
    distanceM,
    voltageKv,
    status: null,
  });

  it('is unknown with no grid layer, and a known zero when the layers have nothing in reach', () => {
    expect(estimateHostingCapacity({ loaded: [], features: [] })).toMatchObject({ estimateMw: null, confidence: 'low', nullReason: 'no_coverage' });
    expect(estimateHostingCapacity({ loaded: ['hifld_substations', 'hifld_transmission_lines'], features: [] })).toMatchObject({
      estimateMw: { low: 0, high: 0 },
      confidence: 'high',
      nullReason: null,
    });
  });

  it('takes the strongest feature, and is only medium sure when its voltage is unknown or a source is missing', () => {
    const both = ['hifld_substations', 'hifld_transmission_lines'] as const;
    const strong = estimateHostingCapacity({ loaded: [...both], features: [feature('substation', 5_000, 69), feature('transmission_line', 5_000, 345)] });
    expect(strong.estimateMw).toEqual({ low: 75, high: 250 });
    expect(strong.basis.map((basis) => basis.kind)).toEqual(['transmission_line', 'substation']);
    expect(strong.confidence).toBe('high');
    expect(estimateHostingCapacity({ loaded: [...both], features: [feature('substation', 0, null)] }).confidence).toBe('medium');
    expect(estimateHostingCapacity({ loaded: ['hifld_substations'], features: [feature('substation', 0, 345)] }).confidence).toBe('medium');
  });
});
