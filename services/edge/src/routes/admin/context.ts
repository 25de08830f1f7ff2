import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { CallContext } from '@gateway/grpc';
import type { AuditContext } from '@gateway/protos';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Downstream } from '../../downstream.js';

/** The admin plugin's instance, typed by its TypeBox schemas: every resource's routes go on this one. */
export type AdminApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What each resource's routes call, and with which context. */
export interface AdminContext {
  downstream: Downstream;
  accounting: Downstream['accounting'];
  /** A request's inner calls: within the admin deadline, cancelled if its caller leaves. */
  call(request: FastifyRequest): CallContext;
  /** A call that changes something: the request's context and who made the change. */
  change(request: FastifyRequest): CallContext & { audit: AuditContext };
}

/** Who made a change, as the audit list records it: the route template and the request id. */
export function auditOf(request: FastifyRequest): AuditContext {
  const template = (request.routeOptions.url ?? request.url).replace(/:([A-Za-z_]+)/g, '{$1}');
  return { route: `${request.method} ${template}`, request_id: request.id };
}
