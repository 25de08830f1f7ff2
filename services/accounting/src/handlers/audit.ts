import type { AccountingServiceHandlers } from '@gateway/protos';
import type { HandlerContext } from './context.js';

// The audit RPC: the admin changes recorded with each key and team change, newest first.

export function auditHandlers({ server, audit }: HandlerContext): Pick<AccountingServiceHandlers, 'ListAuditEvents'> {
  return {
    ListAuditEvents: server.unary('ListAuditEvents', async (request) => {
      const page = await audit.list(request.target_id, request.page_size, request.page_token);
      return {
        events: page.events.map((e) => ({
          id: e._id,
          created_at_ms: e.created_at.getTime(),
          action: e.action,
          target_id: e.target_id,
          route: e.route,
          request_id: e.request_id,
          changes_json: JSON.stringify(e.changes),
        })),
        next_page_token: page.next,
      };
    }),
  };
}
