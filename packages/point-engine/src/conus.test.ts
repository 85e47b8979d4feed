import { describe, expect, it } from 'vitest';
import { isInConus } from './conus.js';

describe('isInConus', () => {
  it.each([
    ['Kansas', -98.5, 39.0],
    ['Austin, TX', -97.74, 30.27],
    ['Key West, FL', -81.78, 24.56],
    ['Brownsville, TX', -97.5, 25.93],
    ['Seattle, WA', -122.33, 47.61],
    ['Bar Harbor, ME', -68.2, 44.39],
    ['Buffalo, NY', -78.88, 42.89],
    ['International Falls, MN', -93.41, 48.6],
  ])('holds %s', (_name, lon, lat) => expect(isInConus(lon, lat)).toBe(true));

  it.each([
    ['Anchorage, AK', -149.9, 61.22],
    ['Honolulu, HI', -157.86, 21.31],
    ['San Juan, PR', -66.1, 18.47],
    ['Toronto, ON', -79.38, 43.65],
    ['Montreal, QC', -73.57, 45.5],
    ['Vancouver, BC', -123.12, 49.28],
    ['Monterrey, MX', -100.31, 25.67],
    ['Ciudad Juárez, MX', -106.45, 31.69],
    ['mid-Atlantic', -60, 35],
  ])('excludes %s', (_name, lon, lat) => expect(isInConus(lon, lat)).toBe(false));

  it('cuts at the 49th parallel: 1 km south is in, 1 km north is out, the line itself is in', () => {
    expect(isInConus(-100, 49 - 0.009)).toBe(true);
    expect(isInConus(-100, 49 + 0.009)).toBe(false);
    expect(isInConus(-100, 49)).toBe(true);
  });
});
