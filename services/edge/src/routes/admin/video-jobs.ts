import type { AdminApp, AdminContext } from './context.js';
import { VideosQuery } from './schemas.js';
import { adminVideoView } from './views.js';

/** GET /admin/v1/videos: every key's video jobs, with the count per status. */
export function videoJobRoutes(app: AdminApp, { downstream, call }: AdminContext): void {
  app.get('/admin/v1/videos', { schema: { querystring: VideosQuery } }, async (request) => {
    const q = request.query;
    const result = await downstream.video.listAllVideos(
      { status: q.status, keyId: q.key_id ?? '', pageSize: q.limit ?? 100, after: q.after ?? '' },
      call(request),
    );
    const data = result.jobs.map(adminVideoView);
    const last = data[data.length - 1];
    return { object: 'list', data, has_more: result.hasMore, next_after: result.hasMore && last ? last.id : null, counts: result.counts };
  });
}
