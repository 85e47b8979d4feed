// Strings are encoded with Node's Buffer rather than TextEncoder (text-encoding.ts says why).
import './text-encoding.js';

// Generated descriptors and message types, one namespace per protobuf package. src/gen is
// produced by `npm run generate` (buf + protoc-gen-es) and never edited by hand.
export * as authv1 from './gen/landscreen/auth/v1/auth_pb.js';
export * as catalogv1 from './catalog-v1.js';
export * as commonv1 from './common-v1.js';
export * as diligencev1 from './gen/landscreen/diligence/v1/diligence_pb.js';
export * as discoveryv1 from './gen/landscreen/discovery/v1/discovery_pb.js';
export * as pipelinev1 from './pipeline-v1.js';
