import { createHash, timingSafeEqual } from 'node:crypto';
import { GatewayError } from '@gateway/errors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CallContext } from '@gateway/grpc';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { refuseSeveralAuthorizations } from '../auth.js';
import type { Downstream } from '../downstream.js';
import { ROUTE_DEADLINES_MS, routeCall } from '../deadlines.js';
import { auditRoutes } from './admin/audit.js';
import { type AdminContext, auditOf } from './admin/context.js';
import { keyRoutes } from './admin/keys.js';
import { overviewRoutes } from './admin/overview.js';
import { compileAdminValidator } from './admin/schemas.js';
import { spendRoutes } from './admin/spend.js';
import { teamRoutes } from './admin/teams.js';
import { upstreamRoutes } from './admin/upstreams.js';
import { videoJobRoutes } from './admin/video-jobs.js';

// The admin API (docs/admin-api.md): keys, teams, spend and the audit list. The edge checks
// shapes and turns HTTP into accounting's calls; accounting owns every rule and records each
// change with the route and request id that made it. This module is the guard and the hooks;
// admin/ holds the views, the request schemas and the routes of each resource.

export { adminKeyView, adminTeamView } from './admin/views.js';

export interface AdminRoutesOptions {
  downstream: Downstream;
  adminToken: string;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Equal-length digests compared in constant time, so neither length nor content leaks. */
export function tokenMatches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(presented), expected);
}

const ADMIN_BODY_LIMIT = 64 * 1024;

/**
 * The admin API, registered only when ADMIN_TOKEN is set and guarded by it alone: no Host
 * header, address or other request detail grants access.
 */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (fastify, { downstream, adminToken }) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const expected = digest(adminToken);

  // Bodies strict, query strings and path parameters coerced (admin/schemas.ts).
  app.setValidatorCompiler(compileAdminValidator);
  // An admin body is a few fields: no route takes more than 64 KiB.
  app.addHook('onRoute', (route) => {
    route.bodyLimit = Math.min(route.bodyLimit ?? ADMIN_BODY_LIMIT, ADMIN_BODY_LIMIT);
  });

  // Every call an admin request makes: within 5 s of its arrival, cancelled if its caller leaves.
  const calls = new WeakMap<FastifyRequest, CallContext>();
  app.addHook('onRequest', async (request, reply) => {
    refuseSeveralAuthorizations(request.raw.rawHeaders);
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !tokenMatches(match[1], expected)) throw new GatewayError('invalid_admin_token');
    calls.set(request, routeCall(request, reply, ROUTE_DEADLINES_MS.admin));
  });
  const call = (request: FastifyRequest): CallContext => calls.get(request) ?? {};
  const context: AdminContext = {
    downstream,
    accounting: downstream.accounting,
    call,
    change: (request) => ({ ...call(request), audit: auditOf(request) }),
  };

  // In this order: keys, teams, spend, the dashboard's overview, video jobs, upstream health, audit.
  keyRoutes(app, context);
  teamRoutes(app, context);
  spendRoutes(app, context);
  overviewRoutes(app, context);
  videoJobRoutes(app, context);
  upstreamRoutes(app, context);
  auditRoutes(app, context);
};
