import { createRequire } from 'node:module';
import type { Agent as UndiciAgent, Pool as UndiciPool, errors as UndiciErrors } from 'undici';

// undici's connection pool without the rest of undici. Its entry point loads all of it (fetch,
// WebSocket, EventSource, caches, mocks: 110 files) and, through its cookies module's look at
// `globalThis.Headers`, Node's own bundled copy of undici as well: 30 MiB of RSS in a bare
// process, where the pool, its request API and the error classes take 16 (bench/history/2026-11-28-results-diary.md, "loading less").
// These are undici's own modules, assembled as its entry point assembles them: the request API
// mixed into Dispatcher's prototype, which Pool inherits. The upstream tests cover the paths.

const require = createRequire(import.meta.url);
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js') as object);

/** undici's Pool: keep-alive connections to one origin, with `request` (and `stream`, ...). */
export const Pool = require('undici/lib/dispatcher/pool.js') as typeof UndiciPool;
export type Pool = UndiciPool;
/** undici's Agent: a pool per origin, for calls to origins not known in advance (clip downloads). */
export const Agent = require('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export type Agent = UndiciAgent;
/** undici's error classes, to tell a timeout or an abort from other failures. */
export const undiciErrors = require('undici/lib/core/errors.js') as typeof UndiciErrors;
