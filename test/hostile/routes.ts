import type { HostileCase } from './case-kit.js';

// The routes the hostile table covers: those a key, the admin token or anyone may call, and
// those that read a body.

/** Whether the gateway answers this case in Anthropic's dialect: the Messages routes, and the model list asked with `anthropic-version`. */
export function speaksAnthropic(c: Pick<HostileCase, 'path' | 'headers'>): boolean {
  const path = c.path.split('?')[0] ?? '';
  const messages = path === '/v1/messages' || path.startsWith('/v1/messages/');
  const models = path === '/v1/models' || path.startsWith('/v1/models/');
  return messages || (models && c.headers?.['anthropic-version'] !== undefined);
}

export const KEY_ROUTES: readonly [string, string][] = [
  ['POST', '/v1/chat/completions'],
  ['POST', '/v1/responses'],
  ['POST', '/v1/messages'],
  ['POST', '/v1/messages/count_tokens'],
  ['GET', '/v1/responses/resp_0123456789abcdef'],
  ['DELETE', '/v1/responses/resp_0123456789abcdef'],
  ['GET', '/v1/responses/resp_0123456789abcdef/input_items'],
  ['GET', '/v1/models'],
  ['GET', '/v1/models/demo-chat'],
  ['GET', '/v1/usage'],
  ['GET', '/v1/usage/logs'],
  ['POST', '/v1/videos'],
  ['GET', '/v1/videos'],
  ['GET', '/v1/videos/video_0123456789abcdef'],
  ['DELETE', '/v1/videos/video_0123456789abcdef'],
  ['GET', '/v1/videos/video_0123456789abcdef/content'],
];

export const ADMIN_ROUTES: readonly [string, string][] = [
  ['POST', '/admin/v1/keys'],
  ['GET', '/admin/v1/keys'],
  ['GET', '/admin/v1/keys/key_0000000000000000'],
  ['PATCH', '/admin/v1/keys/key_0000000000000000'],
  ['POST', '/admin/v1/keys/key_0000000000000000/rotate'],
  ['DELETE', '/admin/v1/keys/key_0000000000000000'],
  ['POST', '/admin/v1/teams'],
  ['GET', '/admin/v1/teams'],
  ['GET', '/admin/v1/teams/team_0000000000000000'],
  ['PATCH', '/admin/v1/teams/team_0000000000000000'],
  ['DELETE', '/admin/v1/teams/team_0000000000000000'],
  ['GET', '/admin/v1/spend/logs'],
  ['GET', '/admin/v1/spend/daily'],
  ['GET', '/admin/v1/spend/top'],
  ['GET', '/admin/v1/overview'],
  ['GET', '/admin/v1/videos'],
  ['GET', '/admin/v1/upstreams'],
  ['GET', '/admin/v1/audit'],
];

/** Routes anyone may call: the dashboard's page and what its sign-in offers (a built file's route exists only once built). */
export const PUBLIC_ROUTES: readonly [string, string][] = [
  ['GET', '/ui/'],
  ['GET', '/ui/config.json'],
];

export const BODY_ROUTES: readonly [string, string, 'key' | 'admin'][] = [
  ['POST', '/v1/chat/completions', 'key'],
  ['POST', '/v1/responses', 'key'],
  ['POST', '/v1/messages', 'key'],
  ['POST', '/v1/messages/count_tokens', 'key'],
  ['POST', '/v1/videos', 'key'],
  ['POST', '/admin/v1/keys', 'admin'],
  ['PATCH', '/admin/v1/keys/key_0000000000000000', 'admin'],
  ['POST', '/admin/v1/keys/key_0000000000000000/rotate', 'admin'],
  ['POST', '/admin/v1/teams', 'admin'],
  ['PATCH', '/admin/v1/teams/team_0000000000000000', 'admin'],
];
