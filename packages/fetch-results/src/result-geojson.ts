// A run's results as one GeoJSON FeatureCollection: a Point feature per result object, its
// values and null reasons as the feature's properties.

import type { ResultRecord } from './result-record.js';

export const GEOJSON_OPENING = '{"type":"FeatureCollection","features":[';
export const GEOJSON_CLOSING = ']}\n';

/** One result object as a GeoJSON feature. */
export function resultFeature(record: ResultRecord) {
  return {
    type: 'Feature' as const,
    geometry: { type: 'Point' as const, coordinates: [record.lon, record.lat] },
    properties: { id: record.id, values: record.values, null_reasons: record.null_reasons },
  };
}

/** The feature's JSON, as the collection lists it. */
export const resultFeatureJson = (record: ResultRecord): string => JSON.stringify(resultFeature(record));
