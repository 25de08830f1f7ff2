import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandling } from '../src/errors.js';
import { RouteMethods } from '../src/route-methods.js';

// The not-found handler's route table: which methods a request path is served with, read as the
// router reads it, so that 405 and its Allow hold exactly when another method would be routed.

function table(): RouteMethods {
  const routes = new RouteMethods({ ignoreTrailingSlash: true, maxParamLength: 100 });
  routes.add('/v1/videos', 'POST');
  routes.add('/v1/videos', ['GET', 'HEAD']);
  routes.add('/v1/videos/:id', 'DELETE');
  routes.add('/v1/videos/:id', 'GET');
  routes.add('/v1/videos/:id/content', 'GET');
  routes.add('/v1/models/special', 'OPTIONS');
  routes.add('/v1/models/:id', 'GET');
  routes.add('/v1/files/:id(^\\d+)', 'GET');
  return routes;
}

describe('RouteMethods', () => {
  it('lists the methods of every pattern the path matches, in Allow order', () => {
    const routes = table();
    expect(routes.allowedAt('/v1/videos')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedAt('/v1/videos/video_1')).toEqual(['GET', 'DELETE']);
    expect(routes.allowedAt('/v1/videos/video_1/content')).toEqual(['GET']);
    // A literal and a parameter both match: the router would try both, so both count.
    expect(routes.allowedAt('/v1/models/special')).toEqual(['GET', 'OPTIONS']);
  });

  it('reads the path as the router does', () => {
    const routes = table();
    expect(routes.allowedAt('/v1/videos?limit=5')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedAt('/v1/videos#top')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedAt('/v1/videos/')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedAt('/v1/videos/x/content/?a=b')).toEqual(['GET']);
    expect(routes.allowedAt('/v1/%76ideos')).toEqual(['GET', 'HEAD', 'POST']);
    expect(routes.allowedAt('/v1/videos/a%2Fb')).toEqual(['GET', 'DELETE']);
    expect(routes.allowedAt('http://evil.example/v1/videos?x=1')).toEqual(['GET', 'HEAD', 'POST']);
    // An empty parameter reaches its route in the router too.
    expect(routes.allowedAt('/v1/videos//content')).toEqual(['GET']);
    expect(routes.allowedAt('/v1/videos//')).toEqual(['GET', 'DELETE']);
  });

  it('matches nothing the router would not route', () => {
    const routes = table();
    for (const path of [
      '/',
      '/v1',
      '/V1/videos',
      '/v1/videos/x/content/extra',
      '/v1/videos/%zz',
      `/v1/videos/${'a'.repeat(101)}`,
      `/v1/videos/${'%41'.repeat(101)}`,
      '/v1/files/12',
      '*',
      'ftp://host/v1/videos',
    ]) {
      expect(routes.allowedAt(path), path).toEqual([]);
    }
    // The length limit counts the decoded parameter, as the router does.
    expect(routes.allowedAt(`/v1/videos/${'%41'.repeat(100)}`)).toEqual(['GET', 'DELETE']);
    expect(routes.allowedAt(`/v1/videos/${'a'.repeat(100)}`)).toEqual(['GET', 'DELETE']);
  });

  it('honours a router that keeps the trailing slash', () => {
    const routes = new RouteMethods({ ignoreTrailingSlash: false, maxParamLength: 100 });
    routes.add('/v1/models', 'GET');
    expect(routes.allowedAt('/v1/models')).toEqual(['GET']);
    expect(routes.allowedAt('/v1/models/')).toEqual([]);
  });
});

describe('the not-found handler', () => {
  it('collects the routes registered after it, in nested plugins and under prefixes, HEAD included', async () => {
    const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await app.register(async (edge) => {
      await edge.register(errorHandling);
      await edge.register(
        async (v1) => {
          v1.get('/things', async () => ({ ok: true }));
          v1.route({ method: ['PUT', 'DELETE'], url: '/things/:id', handler: async () => ({ ok: true }) });
        },
        { prefix: '/v1' },
      );
    });
    await app.ready();
    try {
      const wrong = await app.inject({ method: 'POST', url: '/v1/things/' });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers.allow).toBe('GET, HEAD');
      expect(wrong.json()).toEqual({
        error: {
          message: 'POST is not allowed on /v1/things/; allowed: GET, HEAD.',
          type: 'invalid_request_error',
          code: 'method_not_allowed',
          param: null,
        },
      });
      expect((await app.inject({ method: 'HEAD', url: '/v1/things' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/v1/things/7' })).headers.allow).toBe('PUT, DELETE');
      const unknown = await app.inject({ method: 'GET', url: '/v1/other' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers.allow).toBeUndefined();
      expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    } finally {
      await app.close();
    }
  });
});
