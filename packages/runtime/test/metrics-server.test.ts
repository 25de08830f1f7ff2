import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_METRICS_PORT, metricsListenOptions, startMetricsServer, type MetricsServer } from '../src/index.js';

// The plain HTTP metrics endpoint a gRPC service run alone serves on METRICS_PORT.

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('metrics server', () => {
  it('serves the registry on GET /metrics in the Prometheus text format', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8/);
    const body = await response.text();
    expect(body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(body).toContain('nodejs_heap_size_used_bytes');
    const head = await fetch(`http://127.0.0.1:${server.port}/metrics?x=1`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers 404 elsewhere and 405 for other methods', async () => {
    server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    for (const path of ['/', '/metrics/x', '/health']) {
      expect((await fetch(`http://127.0.0.1:${server.port}${path}`)).status, path).toBe(404);
    }
    const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it("closes, even with a scraper's connection kept open", async () => {
    const running = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${running.port}/metrics`;
    expect((await fetch(url, { headers: { connection: 'keep-alive' } })).status).toBe(200);
    const started = Date.now();
    await running.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(fetch(url)).rejects.toThrow();
  });

  it('listens on GRPC_HOST:METRICS_PORT, 9464 by default, and not at all with METRICS_PORT=0', () => {
    expect(metricsListenOptions({})).toEqual({ host: '0.0.0.0', port: DEFAULT_METRICS_PORT });
    expect(DEFAULT_METRICS_PORT).toBe(9464);
    expect(metricsListenOptions({ METRICS_PORT: '9100', GRPC_HOST: '127.0.0.1' })).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(metricsListenOptions({ METRICS_PORT: '0' })).toBeUndefined();
    expect(() => metricsListenOptions({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT/);
  });
});
