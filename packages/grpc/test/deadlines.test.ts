import { GatewayError } from '@gateway/errors';
import type { ChatServiceClient } from '@gateway/protos';
import { describe, expect, it } from 'vitest';
import { CALL_CANCELLED, CALL_DEADLINE_EXCEEDED, type CallInfo, Metadata, Status, unary } from '../src/index.js';
import { serveOver, TRANSPORTS } from './serve.js';

// What a handler knows of its caller's deadline and cancel (CallInfo.deadline, CallInfo.signal),
// and how unary() ends a call early (CallContext.deadline, CallContext.signal): the same over
// grpc-js and in process, so a handler can pass both on to the calls it makes.

/** Resolves with the signal's reason once it aborts. */
function abortReason(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason);
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

/** A handler that records its call and waits until it is aborted. */
function waitingHandler(): { calls: CallInfo[]; started: Promise<CallInfo>; handler: (call: CallInfo) => Promise<unknown> } {
  const calls: CallInfo[] = [];
  let start: (call: CallInfo) => void = () => undefined;
  const started = new Promise<CallInfo>((resolve) => {
    start = resolve;
  });
  return {
    calls,
    started,
    handler: async (call) => {
      calls.push(call);
      start(call);
      await abortReason(call.signal);
      return { groups: [] };
    },
  };
}

/** The gRPC status under a failed unary() call's GatewayError. */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return ((error as GatewayError).cause as { code?: number } | undefined)?.code;
}

/** ListModels without any deadline (unary() always sets one). */
function callWithoutDeadline(client: ChatServiceClient): Promise<unknown> {
  return new Promise((resolve, reject) => {
    client.ListModels({}, new Metadata(), {}, (error, response) => (error ? reject(error) : resolve(response)));
  });
}

describe.each(TRANSPORTS)('deadlines and cancels over %s', (transport) => {
  it("give the handler its caller's deadline in Unix ms, Infinity when there is none", async () => {
    const seen: number[] = [];
    const { client } = await serveOver(transport, {
      listModels: async (call) => {
        seen.push(call.deadline);
        return { groups: [] };
      },
    });
    const before = Date.now();
    await unary(client, client.ListModels, {}, { deadlineMs: 3000 });
    expect(seen[0]).toBeGreaterThanOrEqual(before + 3000 - 50);
    expect(seen[0]).toBeLessThanOrEqual(Date.now() + 3000 + 50);
    await callWithoutDeadline(client);
    expect(seen[1]).toBe(Number.POSITIVE_INFINITY);
  });

  it('abort a unary handler at its deadline with CALL_DEADLINE_EXCEEDED; the caller gets DEADLINE_EXCEEDED', async () => {
    const { started, handler } = waitingHandler();
    const { client } = await serveOver(transport, { listModels: handler });
    const status = statusOf(unary(client, client.ListModels, {}, { deadlineMs: 150 }));
    const info = await started;
    expect(await abortReason(info.signal)).toBe(CALL_DEADLINE_EXCEEDED);
    expect(CALL_DEADLINE_EXCEEDED.code).toBe('DEADLINE_EXCEEDED');
    expect(await status).toBe(Status.DEADLINE_EXCEEDED);
  });

  it('cancel a unary call when its CallContext.signal aborts: the handler sees CALL_CANCELLED, the caller CANCELLED', async () => {
    const { started, handler } = waitingHandler();
    const { client } = await serveOver(transport, { listModels: handler });
    const controller = new AbortController();
    const startedAt = Date.now();
    const status = statusOf(unary(client, client.ListModels, {}, { deadlineMs: 5000, signal: controller.signal }));
    const info = await started;
    controller.abort();
    expect(await abortReason(info.signal)).toBe(CALL_CANCELLED);
    expect(CALL_CANCELLED.code).toBe('CANCELLED');
    expect(await status).toBe(Status.CANCELLED);
    expect(Date.now() - startedAt).toBeLessThan(2000);
  });

  it('start no call, and retry none, when the signal has already aborted', async () => {
    const { calls, handler } = waitingHandler();
    const { client } = await serveOver(transport, { listModels: handler });
    const controller = new AbortController();
    controller.abort();
    expect(await statusOf(unary(client, client.ListModels, {}, { signal: controller.signal }))).toBe(Status.CANCELLED);
    expect(calls).toHaveLength(0);
  });

  it('answer as usual, and leave the signal alone afterwards, when the call ends first', async () => {
    const { client } = await serveOver(transport, { listModels: async () => ({ groups: [{ id: 'g' }] }) });
    const controller = new AbortController();
    const response = await unary(client, client.ListModels, {}, { signal: controller.signal });
    expect(response.groups.map((group) => group.id)).toEqual(['g']);
    controller.abort(); // nothing to cancel any more: no error, no unhandled rejection
  });

  it('end the call at CallContext.deadline when it is earlier than deadlineMs, and at deadlineMs when that is', async () => {
    const { calls, handler } = waitingHandler();
    const { client } = await serveOver(transport, { listModels: handler });
    const absolute = Date.now() + 150;
    const early = unary(client, client.ListModels, {}, { deadline: absolute, deadlineMs: 5000, retries: 0 });
    expect(await statusOf(early)).toBe(Status.DEADLINE_EXCEEDED);
    expect(Date.now() - absolute).toBeLessThan(1000);
    expect(Math.abs((calls[0]?.deadline ?? 0) - absolute)).toBeLessThan(50);

    const startedAt = Date.now();
    const relative = unary(client, client.ListModels, {}, { deadline: Date.now() + 60_000, deadlineMs: 150, retries: 0 });
    expect(await statusOf(relative)).toBe(Status.DEADLINE_EXCEEDED);
    expect(Date.now() - startedAt).toBeLessThan(1000);

    const unbounded = unary(client, client.ListModels, {}, { deadline: Number.POSITIVE_INFINITY, deadlineMs: 150, retries: 0 });
    expect(await statusOf(unbounded)).toBe(Status.DEADLINE_EXCEEDED);
  });

  it('fail a call whose deadline has already passed with DEADLINE_EXCEEDED', async () => {
    const { client } = await serveOver(transport, { listModels: async () => ({ groups: [] }) });
    expect(await statusOf(unary(client, client.ListModels, {}, { deadline: Date.now() - 1, retries: 0 }))).toBe(Status.DEADLINE_EXCEEDED);
  });

  it("let a handler pass its deadline and signal on: the inner call ends with the outer one's cancel", async () => {
    const inner = waitingHandler();
    const { client: innerClient } = await serveOver(transport, { listModels: inner.handler });
    let outerCall: CallInfo | undefined;
    const { client: outerClient } = await serveOver(transport, {
      listModels: async (call) => {
        outerCall = call;
        return unary(innerClient, innerClient.ListModels, {}, { deadline: call.deadline, signal: call.signal, retries: 0 });
      },
    });
    const controller = new AbortController();
    const outer = statusOf(unary(outerClient, outerClient.ListModels, {}, { deadlineMs: 4000, signal: controller.signal }));
    const innerInfo = await inner.started;
    // The inner call carries the outer caller's deadline.
    expect(Math.abs(innerInfo.deadline - (outerCall?.deadline ?? 0))).toBeLessThan(50);
    controller.abort();
    expect(await abortReason(innerInfo.signal)).toBe(CALL_CANCELLED);
    expect(await outer).toBe(Status.CANCELLED);
  });
});
