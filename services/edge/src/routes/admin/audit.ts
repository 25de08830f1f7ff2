import { page } from '../spend-logs.js';
import type { AdminApp, AdminContext } from './context.js';
import { AuditQuery } from './schemas.js';
import { auditEventView } from './views.js';

/** GET /admin/v1/audit: the changes admins made, each with the route and request id that made it. */
export function auditRoutes(app: AdminApp, { accounting, call }: AdminContext): void {
  app.get('/admin/v1/audit', { schema: { querystring: AuditQuery } }, async (request) => {
    const q = request.query;
    const result = await accounting.listAuditEvents({ targetId: q.target_id, pageSize: q.limit ?? 100, pageToken: q.after }, call(request));
    return page(result.events.map(auditEventView), result.nextPageToken);
  });
}
