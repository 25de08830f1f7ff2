import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger, currentScope, followScopesAcrossAwaits, runInScope } from '@gateway/logging';
import { describe, expect, it } from 'vitest';
import {
  contextFromHeaders,
  contextFromMetadata,
  endServerScope,
  exporterConfigured,
  injectTraceContext,
  LabelledChildren,
  observeBus,
  recordClientSpan,
  renderMetrics,
  startServerScope,
  startTracing,
  tracesUrl,
  tracingEnabled,
  type BusStats,
  type MetadataCarrier,
} from '../src/index.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

/** gRPC metadata's shape, enough for the propagator. */
function metadata(): MetadataCarrier & { values: Map<string, string[]> } {
  const values = new Map<string, string[]>();
  return {
    values,
    get: (key) => values.get(key) ?? [],
    set: (key, value) => {
      values.set(key, [value]);
    },
  };
}

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      callback();
    },
  });
  return { lines, logger: createLogger({ name: 'test', level: 'debug', destination }) };
}

describe('trace context', () => {
  it("continues a caller's traceparent across a hop, and the scope names request and trace", () => {
    const edge = startServerScope(contextFromHeaders({ traceparent: TRACEPARENT }), 'req-1', { name: '' });
    expect(edge.traceId).toBe(TRACE_ID);
    const outgoing = metadata();
    runInScope(edge, () => injectTraceContext(outgoing));
    expect(outgoing.values.get('traceparent')?.[0]).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));

    const service = startServerScope(contextFromMetadata(outgoing), 'req-1', { name: '' });
    expect(service.traceId).toBe(TRACE_ID);
    runInScope(service, () => {
      expect(currentScope()).toMatchObject({ requestId: 'req-1', traceId: TRACE_ID });
    });
    endServerScope(service);
  });

  it('starts a fresh trace when the caller sent none, and sends nothing outside a scope', () => {
    const first = startServerScope(contextFromHeaders({}), 'a', { name: '' });
    const second = startServerScope(contextFromHeaders({ traceparent: 'garbage' }), 'b', { name: '' });
    expect(first.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(first.traceId).not.toMatch(/^0+$/);
    expect(second.traceId).not.toBe(first.traceId);
    const outgoing = metadata();
    injectTraceContext(outgoing);
    expect(outgoing.values.size).toBe(0);
  });

  it('holds a scope for the synchronous run only by default (no promise hooks), then through awaits once traces are exported', async () => {
    const scope = startServerScope(contextFromHeaders({ traceparent: TRACEPARENT }), 'req-2', { name: '' });
    const run = () =>
      runInScope(scope, async () => {
        const before = currentScope()?.requestId;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return [before, currentScope()?.requestId];
      });
    expect(await run()).toEqual(['req-2', undefined]);
    expect(currentScope()).toBeUndefined();
    // What an exporter's start does: spans must nest across awaits from then on.
    followScopesAcrossAwaits();
    expect(await run()).toEqual(['req-2', 'req-2']);
    expect(currentScope()).toBeUndefined();
  });
});

describe('log lines', () => {
  it('carry requestId and traceId inside a scope, a field of the line itself winning, none outside', () => {
    const { lines, logger } = capture();
    const scope = startServerScope(contextFromHeaders({ traceparent: TRACEPARENT }), 'req-3', { name: '' });
    runInScope(scope, () => {
      logger.info('inside');
      logger.child({ service: 'chat' }).warn({ group: 'g' }, 'child inside');
      logger.info({ requestId: 'explicit' }, 'explicit');
    });
    logger.info('outside');
    expect(lines[0]).toMatchObject({ msg: 'inside', requestId: 'req-3', traceId: TRACE_ID });
    expect(lines[1]).toMatchObject({ msg: 'child inside', requestId: 'req-3', traceId: TRACE_ID, service: 'chat', group: 'g' });
    expect(lines[2]).toMatchObject({ msg: 'explicit', requestId: 'explicit', traceId: TRACE_ID });
    expect(lines[3]).not.toHaveProperty('requestId');
    expect(lines[3]).not.toHaveProperty('traceId');
  });
});

describe('metrics', () => {
  it('builds each child once per label values', () => {
    let built = 0;
    const children = new LabelledChildren((a, b, c) => {
      built += 1;
      return `${a}|${b}|${c}`;
    });
    expect(children.get('r', 'g', 200)).toBe('r|g|200');
    expect(children.get('r', 'g', 200)).toBe('r|g|200');
    expect(children.get('r', '', 404)).toBe('r||404');
    expect(built).toBe(2);
  });

  it('reads bus stats at scrape time, cached, and never waits long for a slow broker', async () => {
    let calls = 0;
    let answer: BusStats = { outboxDepth: 3, consumerLag: { 'accounting-spend': 7 } };
    let delayMs = 0;
    const source = {
      stats: async () => {
        calls += 1;
        if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return answer;
      },
    };
    const stop = observeBus(source);
    const stopAgain = observeBus(source);
    let text = (await renderMetrics()).body;
    expect(text).toMatch(/^gateway_bus_outbox_depth 3$/m);
    expect(text).toMatch(/^gateway_bus_consumer_lag\{consumer="accounting-spend"\} 7$/m);
    expect(calls).toBe(1);
    // Fresh for a second: no second question.
    await renderMetrics();
    expect(calls).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, 1050));
    answer = { outboxDepth: 5, consumerLag: { 'accounting-spend': 1 } };
    delayMs = 1000;
    const started = Date.now();
    text = (await renderMetrics()).body;
    expect(Date.now() - started).toBeLessThan(800);
    // The slow answer is not in yet: the last known values are served.
    expect(text).toMatch(/^gateway_bus_outbox_depth 3$/m);

    stop();
    expect((await renderMetrics()).body).toMatch(/^gateway_bus_outbox_depth 3$/m);
    stopAgain();
    text = (await renderMetrics()).body;
    expect(text).toMatch(/^gateway_bus_outbox_depth 0$/m);
    expect(text).not.toContain('gateway_bus_consumer_lag{');
  });

  it('include the process metrics', async () => {
    const { contentType, body } = await renderMetrics();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toContain('process_cpu_user_seconds_total');
    expect(body).toContain('nodejs_eventloop_lag_seconds');
  });
});

describe('trace export', () => {
  it('is off unless an OTLP endpoint or exporter is named', () => {
    expect(exporterConfigured({})).toBe(false);
    expect(exporterConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(exporterConfigured({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(exporterConfigured({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe('http://collector:4318/v1/traces');
    expect(tracesUrl({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' })).toBe('http://c:4318/custom');
  });

  it('sends server and client spans to the OTLP endpoint and stops with the last user', async () => {
    const received: { path: string | undefined; body: string }[] = [];
    const collector = createServer((request: IncomingMessage, response) => {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => {
        received.push({ path: request.url, body: Buffer.concat(parts).toString('utf8') });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const env = {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
      OTEL_SERVICE_NAME: 'gateway-test',
    };
    try {
      const first = await startTracing({ env, serviceName: 'unused' });
      const second = await startTracing({ env, serviceName: 'unused' });
      expect(first.enabled).toBe(true);
      expect(tracingEnabled()).toBe(true);

      const scope = startServerScope(contextFromHeaders({ traceparent: TRACEPARENT }), 'req-4', { name: 'chat/CreateChatCompletion' });
      expect(scope.traceId).toBe(TRACE_ID);
      expect(scope.span.isRecording()).toBe(true);
      const started = performance.now();
      runInScope(scope, () => recordClientSpan('upstream openai', started, performance.now(), { 'gateway.group': 'g' }));
      endServerScope(scope);

      await first.shutdown();
      expect(tracingEnabled()).toBe(true);
      await second.shutdown();
      expect(tracingEnabled()).toBe(false);
      const exported = received
        .filter((r) => r.path === '/v1/traces')
        .map((r) => r.body)
        .join('');
      expect(exported).toContain('chat/CreateChatCompletion');
      expect(exported).toContain('upstream openai');
      expect(exported).toContain('gateway-test');
    } finally {
      await new Promise((resolve) => collector.close(resolve));
    }
  });
});
