import { createRequire } from 'node:module';

/**
 * `node:http`, loaded through require. On Node 24 an ESM import of it reads every export, and its
 * lazy `WebSocket`, `CloseEvent` and `MessageEvent` then load Node's bundled copy of undici (a
 * 745 KB source, compiled at start), which no service uses: several MiB of each process's RSS
 * (bench/history/2026-11-28-results-diary.md, "loading less"). Through require the lazy exports stay unread.
 */
export const nodeHttp = createRequire(import.meta.url)('node:http') as typeof import('node:http');
