// The REST JSON of the discovery messages, written once for every reader: the gateway's routes
// and the services that store what discovery answered (a property's parcel, a match's
// evaluation, failed evidence and applied spec). Hand-written, without reflection (hot paths).
export { buyBoxSpecJson, buyBoxSpecMessage, type BuyBoxSpecJsonShape } from './buy-box-spec.js';
export { discoveryResultJson, mustEvidenceJson, preferredEvidenceJson, writeDiscoveryResult, type DiscoveryResultShape } from './discovery-result.js';
export { JsonChunks, scalarJson, stringJson, stringsJson } from './json-chunks.js';
export { parcelCandidateJson, writeParcelCandidate } from './parcel-candidate.js';
export { valueJson, valueOf } from './value.js';
