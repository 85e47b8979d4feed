// General value rule 5: "CONUS only" fields are null outside the contiguous United States.
// The test is a point-in-polygon against CONUS_OUTLINE, a hand-simplified outline of the lower 48
// states (about 70 vertices, lon/lat with straight edges): the 49th parallel and the other
// straight border segments are exact; along coasts, the Great Lakes, the St. Lawrence and the Rio
// Grande it is within about 25 km of the true line, generous seaward so coastal sites count in.
// A box would not do: the box of the lower 48 holds Toronto, Montreal and Monterrey.

import { rulerAt } from './geodesy.js';
import { packGeometry, polygonContains } from './geometry.js';

export const CONUS_OUTLINE: readonly (readonly [number, number])[] = [
  // Pacific coast, north to south (seaward of the shore)
  [-124.85, 48.4], [-124.8, 46.9], [-124.25, 43.0], [-124.6, 42.0], [-124.5, 40.3], [-123.9, 38.9],
  [-122.9, 37.6], [-122.0, 36.4], [-121.0, 35.0], [-120.7, 34.4], [-118.6, 33.7], [-117.5, 32.9],
  // Mexican border, west to east
  [-117.12, 32.53], [-114.72, 32.72], [-114.81, 32.49], [-111.07, 31.33], [-108.21, 31.33],
  [-108.21, 31.78], [-106.53, 31.78],
  // Rio Grande
  [-105.0, 30.68], [-104.5, 29.64], [-103.15, 28.98], [-102.4, 29.78], [-101.4, 29.77], [-100.3, 28.3],
  [-99.5, 27.5], [-99.1, 26.4], [-98.0, 26.05], [-97.5, 25.84], [-97.15, 25.95],
  // Gulf coast (seaward)
  [-97.0, 27.6], [-96.0, 28.4], [-94.0, 29.4], [-92.0, 29.3], [-90.0, 28.8], [-88.8, 29.0], [-88.0, 30.2],
  [-86.0, 30.2], [-84.5, 29.6], [-83.2, 28.8], [-82.9, 27.3], [-81.9, 26.0], [-81.95, 24.45],
  // Florida Keys and Atlantic coast, south to north (seaward)
  [-80.2, 24.9], [-79.95, 26.8], [-80.4, 28.4], [-81.1, 30.4], [-80.6, 32.1], [-78.5, 33.7],
  [-75.4, 35.1], [-75.5, 37.0], [-74.6, 39.0], [-73.7, 40.5], [-71.85, 40.95], [-69.85, 41.2],
  [-69.9, 42.1], [-70.4, 43.0], [-68.5, 44.1], [-66.95, 44.8],
  // Canadian border, east to west: New Brunswick, Quebec, the St. Lawrence and the Great Lakes
  [-67.78, 45.7], [-67.79, 47.07], [-68.3, 47.35], [-69.22, 47.45], [-70.0, 46.7], [-70.3, 45.9],
  [-71.5, 45.01], [-74.7, 45.0], [-75.8, 44.4], [-76.4, 44.1], [-79.1, 43.5], [-79.05, 42.85],
  [-82.7, 41.7], [-83.1, 42.1], [-82.45, 43.0], [-82.13, 45.0], [-83.5, 45.9], [-84.1, 46.5],
  [-84.8, 46.9], [-88.4, 48.3], [-89.6, 48.0], [-92.0, 48.45], [-93.4, 48.63], [-94.6, 48.72], [-95.15, 49.0],
  // 49th parallel to the Strait of Juan de Fuca
  [-123.32, 49.0], [-123.2, 48.7], [-123.1, 48.2], [-124.85, 48.4],
];

const CONUS_SHAPE = packGeometry({ type: 'Polygon', coordinates: [CONUS_OUTLINE as readonly (readonly number[])[]] });

/** Whether (lon, lat) lies in the contiguous United States (on the outline counts as in). */
export function isInConus(lon: number, lat: number): boolean {
  return polygonContains(CONUS_SHAPE, lon, lat, rulerAt(lat));
}
