import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult, noFacts, vintageCitation } from './builtin-result.js';

/**
 * parcel_record: the parcel as loaded — identifiers, location, size, zoning, land use, owner of
 * record and assessed value. Ready when it can be identified (APN or address), located and sized;
 * partial when one of those is missing.
 */
export const parcelRecordProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    const parcel = input.property?.property.parcel;
    if (!parcel) return noFacts(input, 'Parcel record');
    const typed = parcel.typed;
    const record = {
      parcel_key: parcel.parcel_key,
      market: parcel.market,
      vintage_id: parcel.vintage_id,
      apn: parcel.apn,
      address: parcel.address,
      lat: parcel.lat,
      lon: parcel.lon,
      geometry_type: parcel.geometry?.type ?? null,
      acres: typed.acres ?? null,
      developable_acres: typed.developable_acres ?? null,
      zoning: typed.zoning ?? null,
      land_use: typed.land_use ?? null,
      owner_name: typed.owner_name ?? null,
      assessed_value_usd: typed.assessed_value_usd ?? null,
    };
    const missing = [
      ...(record.apn === null && record.address === null ? ['apn or address'] : []),
      ...(record.lat === null || record.lon === null ? ['location'] : []),
      ...(record.acres === null ? ['acres'] : []),
    ];
    const name = record.apn ? `APN ${record.apn}` : (record.address ?? parcel.parcel_key);
    const size = record.acres === null ? 'size unknown' : `${record.acres} acres`;
    const zoning = record.zoning ? `, zoned ${record.zoning}` : '';
    const summary = `${name}: ${size}${zoning}${missing.length ? `; missing ${missing.join(', ')}` : ''}.`;
    return builtinResult(input, missing.length ? 'partial' : 'ready', summary, { record, missing }, [vintageCitation(input)]);
  },
};
