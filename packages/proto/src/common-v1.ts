// The landscreen.common.v1 package spans several .proto files; one namespace holds them all.
export * from './gen/landscreen/common/v1/error_pb.js';
export * from './gen/landscreen/common/v1/tile_pb.js';
