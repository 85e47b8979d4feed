// Public surface of @landscreen/fetch-results: D34's point-data results written once for every
// path that answers them (fetch/batch, lookups, runs) and every format (JSON, NDJSON, CSV, GeoJSON).

export { answerFetchValues, engineFetchValues } from './fetch-values.js';
export { DEFAULT_NULL_REASON, fetchResultsJson, ResultWriter, ValuesWriter } from './result-json.js';
export { parseResultLines, type ResultRecord } from './result-record.js';
export { resultCsvHeader, resultCsvRow } from './result-csv.js';
export { GEOJSON_CLOSING, GEOJSON_OPENING, resultFeature, resultFeatureJson } from './result-geojson.js';
