import type { pipelinev1 } from '@landscreen/proto';

/** What one import row asks to resolve, once checked (D30). */
export interface CheckedRow {
  apn?: string;
  address?: string;
  point?: { lat: number; lon: number };
}

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== '';

/**
 * A row of a lead import checked on its own: usable (what to resolve it by), or invalid with a
 * sentence naming the field. A broker's spreadsheet is messy, so a bad row is reported in its
 * place rather than refusing the whole list; the limits are those of /v2/parcels/resolve.
 */
export function checkRow(row: pipelinev1.ImportRow): CheckedRow | { invalid: string } {
  const hasLat = row.lat !== undefined;
  const hasLon = row.lon !== undefined;
  if (hasLat !== hasLon) return { invalid: hasLat ? 'lat is given without lon.' : 'lon is given without lat.' };
  if (hasLat && !(Number.isFinite(row.lat) && row.lat! >= -90 && row.lat! <= 90)) return { invalid: `lat ${row.lat} is out of range (-90 to 90).` };
  if (hasLon && !(Number.isFinite(row.lon) && row.lon! >= -180 && row.lon! <= 180)) return { invalid: `lon ${row.lon} is out of range (-180 to 180).` };
  if (present(row.apn) && row.apn.length > 255) return { invalid: 'apn is longer than 255 characters.' };
  if (present(row.address) && row.address.length > 500) return { invalid: 'address is longer than 500 characters.' };
  const checked: CheckedRow = {
    ...(present(row.apn) && { apn: row.apn }),
    ...(present(row.address) && { address: row.address }),
    ...(hasLat && { point: { lat: row.lat!, lon: row.lon! } }),
  };
  if (!checked.apn && !checked.address && !checked.point) return { invalid: 'The row has no apn, address or lat/lon to resolve it by.' };
  return checked;
}
