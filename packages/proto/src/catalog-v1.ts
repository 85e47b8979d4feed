// The landscreen.catalog.v1 package spans several .proto files; one namespace holds them all.
export * from './gen/landscreen/catalog/v1/catalog_pb.js';
export * from './gen/landscreen/catalog/v1/runs_pb.js';
export * from './gen/landscreen/catalog/v1/billing_pb.js';
export * from './gen/landscreen/catalog/v1/tiles_pb.js';
