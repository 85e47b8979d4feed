// The JSON form of discovery's messages, written once for every reader: the pipeline stores it
// (a property's parcel, a match's evaluation, failed evidence and applied spec) and the gateway's
// views answer it (docs/decisions.md, "Where the JSON of discovery's answers lives"). Text
// writers splice the bytes a service already encoded (hot paths, no reflection); the value
// builders give the same shapes to a reader that works on them.
export { buyBoxSpecJson, buyBoxSpecMessage, type BuyBoxSpecJsonShape } from './buy-box-spec.js';
export { discoveryResultJson, mustEvidenceJson, preferredEvidenceJson, writeDiscoveryResult, type DiscoveryResultShape } from './discovery-result.js';
export { JsonChunks, scalarJson, stringJson, stringsJson } from './json-chunks.js';
export { parcelCandidateJson, writeParcelCandidate } from './parcel-candidate.js';
export { valueJson, valueOf } from './value.js';
export { buyBoxSpecValue, discoveryResultValue, jsonValue, mustEvidenceValues, openJsonValue, parcelCandidateValue, preferredEvidenceValues } from './values.js';
