import type { AdminApp, AdminContext } from './context.js';
import { NoQuery } from './schemas.js';
import { deploymentView } from './views.js';

/** GET /admin/v1/upstreams: the health of every chat and video deployment, as their services see it. */
export function upstreamRoutes(app: AdminApp, { downstream, call }: AdminContext): void {
  app.get('/admin/v1/upstreams', { schema: { querystring: NoQuery } }, async (request) => {
    const context = call(request);
    // Each service answers for its own routers; one that is down leaves its part out, named.
    const answers = await Promise.allSettled([downstream.chat.upstreamHealth(context), downstream.video.upstreamHealth(context)]);
    const kinds = ['chat', 'video'] as const;
    const data = answers.flatMap((answer, i) =>
      answer.status === 'fulfilled' ? answer.value.map((deployment) => deploymentView(kinds[i] ?? 'chat', deployment)) : [],
    );
    const unavailable = kinds.filter((_, i) => answers[i]?.status === 'rejected');
    return { object: 'list', data, unavailable };
  });
}
