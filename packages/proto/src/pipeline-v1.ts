// The landscreen.pipeline.v1 package spans two files (pipeline.proto and leads.proto, D30); one
// namespace carries both, as protoc-gen-es writes one module per file.
export * from './gen/landscreen/pipeline/v1/pipeline_pb.js';
export * from './gen/landscreen/pipeline/v1/leads_pb.js';
