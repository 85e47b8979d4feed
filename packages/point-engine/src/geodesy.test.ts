import { describe, expect, it } from 'vitest';
import { distanceM, rulerAt, vincentyM } from './geodesy.js';

describe('distanceM', () => {
  it('puts a point 0.01° north of another 1,112 m away (±0.5%) across the contiguous US', () => {
    for (const lat of [25, 30, 35, 40, 45, 49]) {
      expect(distanceM(-97, lat, -97, lat + 0.01)).toBeGreaterThan(1112 * 0.995);
      expect(distanceM(-97, lat, -97, lat + 0.01)).toBeLessThan(1112 * 1.005);
    }
  });

  it('matches the WGS84 meridian arc: 0.01° at 45°N is M(45°)·π/18000 = 1,111.35 m', () => {
    // M = a(1-e²)/(1-e²sin²φ)^1.5 = 6,367,381.8 m at 45°.
    expect(distanceM(0, 44.995, 0, 45.005)).toBeCloseTo(1111.35, 1);
  });

  it('agrees with Vincenty to 1e-4 within 20 km in every direction', () => {
    for (let bearing = 0; bearing < 360; bearing += 15) {
      const ruler = rulerAt(38);
      const r = 19_000;
      const lon = -100 + (r * Math.sin((bearing * Math.PI) / 180)) / ruler.kx;
      const lat = 38 + (r * Math.cos((bearing * Math.PI) / 180)) / ruler.ky;
      const exact = vincentyM(-100, 38, lon, lat);
      expect(Math.abs(distanceM(-100, 38, lon, lat) - exact) / exact).toBeLessThan(1e-4);
    }
  });

  it("gives Vincenty's published answer for Flinders Peak to Buninyong (54,972.271 m)", () => {
    const flinders = [144 + 25 / 60 + 29.52440 / 3600, -(37 + 57 / 60 + 3.72030 / 3600)];
    const buninyong = [143 + 55 / 60 + 35.38390 / 3600, -(37 + 39 / 60 + 10.15610 / 3600)];
    expect(vincentyM(flinders[0], flinders[1], buninyong[0], buninyong[1])).toBeCloseTo(54_972.271, 2);
    expect(distanceM(flinders[0], flinders[1], buninyong[0], buninyong[1])).toBeCloseTo(54_972.271, 2);
  });

  it('is 0 for the same point and symmetric', () => {
    expect(distanceM(-97, 30, -97, 30)).toBe(0);
    expect(distanceM(-97, 30, -96, 31)).toBeCloseTo(distanceM(-96, 31, -97, 30), 6);
  });
});
