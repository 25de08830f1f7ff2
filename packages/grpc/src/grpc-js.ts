import { createRequire } from 'node:module';
import type * as GrpcJs from '@grpc/grpc-js';

// What the in-process transport needs of grpc-js at run time is its Metadata class and status
// codes: those come from grpc-js's own files (the very classes and enums its index exports),
// without the rest of it. grpc-js itself (~100 modules, ~2.9 MiB of heap) is loaded on first use:
// by a GrpcServer, and by a client for a target that is not in process.

export { LogVerbosity, Status } from '@grpc/grpc-js/build/src/constants.js';
export { setLoggerVerbosity } from '@grpc/grpc-js/build/src/logging.js';
export { Metadata } from '@grpc/grpc-js/build/src/metadata.js';

const require = createRequire(import.meta.url);
let loaded: typeof GrpcJs | undefined;

/** grpc-js, loaded on the first call. */
export function loadGrpcJs(): typeof GrpcJs {
  loaded ??= require('@grpc/grpc-js') as typeof GrpcJs;
  return loaded;
}
