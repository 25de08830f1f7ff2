import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { dashboardAssetsDir } from '@gateway/dashboard';
import { GatewayError } from '@gateway/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../errors.js';

// The usage dashboard at /ui/: the files `npm run build` makes in packages/dashboard/dist/ui,
// read into memory once at start (a few tens of KiB), each served by a route of its own, so a
// wrong method gets 405 and an unknown path the usual 404. Every /ui answer, errors included,
// carries a strict Content-Security-Policy: the page runs only its own script and style files
// and talks only to this origin. The page itself is static and public; what it shows comes from
// the API it calls with the credential the user signs in with (docs/architecture.md, "Dashboard").

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

/** `/ui` and everything under it, as the router sees paths (the query left out). */
function isDashboardPath(url: string): boolean {
  return url.startsWith('/ui') && (url.length === 3 || url[3] === '/' || url[3] === '?');
}

/**
 * GET /ui (redirects to /ui/), /ui/ (index.html), /ui/config.json (what the sign-in offers) and
 * one route per built file. Wrapped by fastify-plugin so that the security headers reach every
 * /ui answer, the router's 404 and 405 included.
 */
export const dashboardRoutes = fp<DashboardRoutesOptions>(
  async (app, options) => {
    const dir = options.assetsDir ?? dashboardAssetsDir;
    const assets = loadAssets(dir);
    if (!assets) app.log.warn({ dir }, 'dashboard not built: /ui/ answers 503 until `npm run build` is run and the gateway restarted');

    app.addHook('onRequest', (request, reply, done) => {
      if (isDashboardPath(request.url)) reply.headers(SECURITY_HEADERS);
      done();
    });

    const config = JSON.stringify({ admin: options.admin });
    // With ignoreTrailingSlash, '/ui/' also serves '/ui': that one is sent to the page's address
    // (relative URLs in the page resolve against it).
    app.get('/ui/', async (request, reply) => {
      const query = request.url.indexOf('?');
      const path = query === -1 ? request.url : request.url.slice(0, query);
      if (!path.endsWith('/')) return reply.redirect(`/ui/${query === -1 ? '' : request.url.slice(query)}`, 301);
      const index = assets?.get('');
      if (!index) {
        return sendError(
          reply,
          new GatewayError('service_unavailable', {
            message:
              'The dashboard is not built: run `npm run build` (it builds packages/dashboard into dist/ui), then restart the gateway.',
          }),
        );
      }
      return send(request, reply, index);
    });
    app.get('/ui/config.json', async (_request, reply) =>
      reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(config),
    );
    for (const [path, file] of assets ?? []) {
      if (path === '' || path === 'config.json') continue;
      app.get(`/ui/${path}`, async (request, reply) => send(request, reply, file));
    }
  },
  { name: 'edge-dashboard', fastify: '5.x' },
);
