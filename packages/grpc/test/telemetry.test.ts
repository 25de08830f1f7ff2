import { GatewayError } from '@gateway/errors';
import { currentScope, runInScope, type RequestScope } from '@gateway/logging';
import { contextFromHeaders, renderMetrics, startServerScope } from '@gateway/telemetry';
import { describe, expect, it } from 'vitest';
import { unary, upstreamMsOf } from '../src/index.js';
import { serve } from './serve.js';

// What every gRPC hop carries besides the request: the trace (traceparent in metadata), the
// request id in the handler's scope, the upstream time back in leading metadata, and the
// server's call counter and duration.

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

function metricValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('gRPC telemetry', () => {
  it("runs the handler in the caller's trace and request, and returns the upstream time", async () => {
    let seen: RequestScope | undefined;
    let traceparent: unknown;
    const { client } = await serve(async (call) => {
      seen = currentScope();
      traceparent = call.metadata.get('traceparent')[0];
      call.upstreamMs = 12.5;
      return { groups: [] };
    });
    const caller = startServerScope(contextFromHeaders({ traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` }), 'req-grpc', { name: '' });
    let upstreamMs: number | undefined;
    await runInScope(caller, () =>
      unary(
        client,
        client.ListModels,
        {},
        {
          requestId: 'req-grpc',
          onResponseMetadata: (metadata) => {
            upstreamMs = upstreamMsOf(metadata);
          },
        },
      ),
    );
    expect(traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-`));
    expect(seen).toMatchObject({ requestId: 'req-grpc', traceId: TRACE_ID });
    expect(upstreamMs).toBe(12.5);
  });

  it('sends no upstream time when the handler waited on none', async () => {
    const { client } = await serve(async () => ({ groups: [] }));
    let upstreamMs: number | undefined = -1;
    await unary(
      client,
      client.ListModels,
      {},
      {
        onResponseMetadata: (metadata) => {
          upstreamMs = upstreamMsOf(metadata);
        },
      },
    );
    expect(upstreamMs).toBeUndefined();
  });

  it('counts calls by service, method and status code, and times them', async () => {
    let fail = false;
    const { client } = await serve(async () => {
      if (fail) throw new GatewayError('model_not_allowed');
      return { groups: [] };
    });
    const before = (await renderMetrics()).body;
    const okBefore = metricValue(before, 'gateway_grpc_server_handled_total{service="test",method="ListModels",code="OK"}') ?? 0;
    await unary(client, client.ListModels, {});
    await unary(client, client.ListModels, {});
    fail = true;
    await unary(client, client.ListModels, {}).catch(() => undefined);
    const text = (await renderMetrics()).body;
    expect(metricValue(text, 'gateway_grpc_server_handled_total{service="test",method="ListModels",code="OK"}')).toBe(okBefore + 2);
    expect(
      metricValue(text, 'gateway_grpc_server_handled_total{service="test",method="ListModels",code="PERMISSION_DENIED"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(metricValue(text, 'gateway_grpc_server_handling_seconds_count{service="test",method="ListModels"}')).toBeGreaterThanOrEqual(
      okBefore + 3,
    );
  });
});
