/**
 * A small market for the lead suites (leads.test.ts, leads-nats.test.ts): square parcels in a row
 * (so a point inside one finds it), APNs L-001…, addresses "N Lead Road", two parcels sharing an
 * address and one with an all-digit APN; acres and substation distances spread so the buy box
 * ranks them with different scores.
 */
const SIDE = 0.004;

const square = (lon: number, lat: number) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon, lat], [lon + SIDE, lat], [lon + SIDE, lat + SIDE], [lon, lat + SIDE], [lon, lat]]],
});

const numbered = Array.from({ length: 12 }, (_, i) => ({
  parcel_key: `lt-${i + 1}`,
  apn: `L-${String(i + 1).padStart(3, '0')}`,
  address: `${i + 1} Lead Road`,
  acres: 60 + ((i * 37) % 200),
  within_floodplain_polygon: false,
  nearest_substation_distance_m: 500 + ((i * 1_300) % 6_000),
}));

const extra = [
  { parcel_key: 'lt-shared-a', apn: 'S-1', address: '100 Shared Road', acres: 55, within_floodplain_polygon: false, nearest_substation_distance_m: 9_000 },
  { parcel_key: 'lt-shared-b', apn: 'S-2', address: '100 Shared Road', acres: 56, within_floodplain_polygon: false, nearest_substation_distance_m: 9_500 },
  { parcel_key: 'lt-numeric', apn: '12345', address: '7 Number Way', acres: 70, within_floodplain_polygon: false, nearest_substation_distance_m: 4_000 },
  // Fails a must-have: never delivered (discovery does not rank it).
  { parcel_key: 'lt-flood', apn: 'F-1', address: '1 Flood Lane', acres: 400, within_floodplain_polygon: true, nearest_substation_distance_m: 100 },
];

export const LEAD_PARCELS = [...numbered, ...extra].map((properties, index) => ({
  geometry: square(-97.5 + index * 0.01, 30.1),
  properties,
}));

export const LEAD_SPEC = {
  markets: ['lead-tx'],
  must: [
    { field: 'acres', op: '>=', value: 50 },
    { field: 'within_floodplain_polygon', op: 'eq', value: false },
  ],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 2 },
    { field: 'acres', op: '>=', value: 150, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

/** A point well inside a parcel of the fixture. */
export function centreOf(feature: (typeof LEAD_PARCELS)[number]): { lat: number; lon: number } {
  const [[lon, lat]] = feature.geometry.coordinates[0]!;
  return { lat: lat! + SIDE / 2, lon: lon! + SIDE / 2 };
}
