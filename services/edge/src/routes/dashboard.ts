import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dashboardAssetsDir } from '@gateway/dashboard';
import { GatewayError } from '@gateway/errors';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../errors.js';
import { RouteMethods } from '../route-methods.js';

// The usage dashboard at /ui/: the files `npm run build` makes in packages/dashboard/dist/ui,
// read into memory once at start (a few tens of KiB), each served by a route of its own, so a
// wrong method gets 405 and an unknown path the usual 404. Every answer of the dashboard's
// routes, errors included, carries a strict Content-Security-Policy: the page runs only its own
// script and style files and talks only to this origin. The page itself is static and public;
// what it shows comes from the API it calls with the credential the user signs in with
// (docs/architecture.md, "Dashboard").

/** Where the page is served; Vite builds it for this base (packages/dashboard/vite.config.ts). */
const DASHBOARD_PREFIX = '/ui';

/** The policy of every /ui answer: nothing inline, nothing from another origin, no framing. */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Vite names what it builds `name-<hash>.ext`: such a file never changes under its name. */
const HASHED = /^assets\/.+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
/** The characters of a path served as it is (no `:` or `*`, which the router reads as patterns). */
const SAFE_PATH = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
/** Text smaller than this is sent as it is. */
const GZIP_FROM_BYTES = 1024;

interface Asset {
  body: Buffer;
  gzip: Buffer | undefined;
  type: string;
  etag: string;
  cacheControl: string;
}

export interface DashboardRoutesOptions {
  /** Whether the admin API is on; the page offers the admin sign-in only then. */
  admin: boolean;
  /** Where the built files are; defaults to the dashboard package's dist/ui. */
  assetsDir?: string;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

function asset(path: string, body: Buffer, cacheControl: string): Asset {
  const type = CONTENT_TYPES[extname(path)] ?? 'application/octet-stream';
  const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.length >= GZIP_FROM_BYTES;
  return {
    body,
    gzip: compressible ? gzipSync(body, { level: 9 }) : undefined,
    type,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    cacheControl,
  };
}

/** The built files by path under /ui/ ('' for index.html), or undefined when nothing is built. */
function loadAssets(dir: string): Map<string, Asset> | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, Asset>();
  for (const file of filesUnder(dir)) {
    const path = relative(dir, file).split('\\').join('/');
    // A name the router would read as a parameter or wildcard is no file of Vite's: left out.
    if (!SAFE_PATH.test(path)) continue;
    const body = readFileSync(file);
    if (path === 'index.html') assets.set('', asset(path, body, 'no-cache'));
    else assets.set(path, asset(path, body, HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache'));
  }
  return assets;
}

/** Whether the client takes gzip: named (or `*`) in Accept-Encoding with a weight above 0. */
function acceptsGzip(request: FastifyRequest): boolean {
  const accepted = request.headers['accept-encoding'];
  if (typeof accepted !== 'string') return false;
  return accepted.split(',').some((part) => {
    const [coding = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (coding !== 'gzip' && coding !== '*') return false;
    const weight = params.find((param) => param.startsWith('q='));
    return weight === undefined || Number(weight.slice(2)) > 0;
  });
}

function send(request: FastifyRequest, reply: FastifyReply, file: Asset): FastifyReply {
  reply.header('cache-control', file.cacheControl).header('etag', file.etag).type(file.type);
  if (file.gzip) reply.header('vary', 'accept-encoding');
  const match = request.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === file.etag)) {
    return reply.code(304).send();
  }
  if (file.gzip && acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

/** The 404 or 405 of a /ui path no route serves with this method, as the root's answers read. */
function notServed(routes: RouteMethods, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '';
  const allowed = routes.allowedAt(request.url);
  if (allowed.length === 0) return sendError(reply, new GatewayError('not_found', { message: `Unknown route: ${request.method} ${path}` }));
  reply.header('allow', allowed.join(', '));
  return sendError(
    reply,
    new GatewayError('method_not_allowed', { message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.` }),
  );
}

/**
 * The dashboard's own context, under the /ui prefix: GET /ui (redirects to /ui/), /ui/ (index.html),
 * /ui/config.json (what the sign-in offers) and one route per built file. Its hooks and 404 handler
 * are its own, so the security headers go on whatever the router matched to it, however the path
 * was spelled (`/%75i/` is `/ui/` to the router), and nothing of it runs for any other route.
 */
const dashboardScope: FastifyPluginAsync<DashboardRoutesOptions> = async (scope, options) => {
  const dir = options.assetsDir ?? dashboardAssetsDir;
  const assets = loadAssets(dir);
  if (!assets) scope.log.warn({ dir }, 'dashboard not built: /ui/ answers 503 until `npm run build` is run and the gateway restarted');

  // onSend, not onRequest: it also reaches answers given before the handler (a root hook's 503
  // while shutting down) and the error handler's.
  scope.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });
  // The router's 404 and 405 for /ui paths are answered here, so that they get the hook above;
  // the methods each path takes are collected as the root's error handling collects them.
  const { routerOptions } = scope.initialConfig;
  const routes = new RouteMethods({
    ignoreTrailingSlash: routerOptions?.ignoreTrailingSlash ?? scope.initialConfig.ignoreTrailingSlash ?? false,
    maxParamLength: routerOptions?.maxParamLength ?? scope.initialConfig.maxParamLength ?? 100,
  });
  scope.addHook('onRoute', (route) => routes.add(route.url, route.method));
  scope.setNotFoundHandler((request, reply) => notServed(routes, request, reply));

  const config = JSON.stringify({ admin: options.admin });
  // With ignoreTrailingSlash, '/ui/' also serves '/ui': that one is sent to the page's address
  // (relative URLs in the page resolve against it).
  scope.get('/', async (request, reply) => {
    const query = request.url.indexOf('?');
    const path = query === -1 ? request.url : request.url.slice(0, query);
    if (!path.endsWith('/')) return reply.redirect(`${DASHBOARD_PREFIX}/${query === -1 ? '' : request.url.slice(query)}`, 301);
    const index = assets?.get('');
    if (!index) {
      return sendError(
        reply,
        new GatewayError('service_unavailable', {
          message: 'The dashboard is not built: run `npm run build` (it builds packages/dashboard into dist/ui), then restart the gateway.',
        }),
      );
    }
    return send(request, reply, index);
  });
  scope.get('/config.json', async (_request, reply) =>
    reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(config),
  );
  for (const [path, file] of assets ?? []) {
    if (path === '' || path === 'config.json') continue;
    scope.get(`/${path}`, async (request, reply) => send(request, reply, file));
  }
};

/**
 * The dashboard, registered in a context of its own under /ui (the page is built for that base).
 * The fastify-plugin wrapper only names it; it adds nothing to the parent context.
 */
export const dashboardRoutes = fp<DashboardRoutesOptions>(
  async (app, options) => {
    await app.register(dashboardScope, { ...options, prefix: DASHBOARD_PREFIX });
  },
  { name: 'edge-dashboard', fastify: '5.x' },
);
