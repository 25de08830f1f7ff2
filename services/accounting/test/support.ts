import type { SpendEvent } from '@gateway/contracts';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { NatsServer } from '../../../test/helpers/nats-server.js';

// Set-up the accounting suites share.

export type Cleanup = () => Promise<void> | void;

/** Cleanups to run after each test, the last registered first; returns the function that registers one. */
export function cleanupAfterEach(): (cleanup: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}

/** A real nats-server for the file's tests, started once and removed at the end; returns its getter. */
export function natsForFile(): () => NatsServer {
  let nats: NatsServer | undefined;
  beforeAll(async () => {
    nats = await NatsServer.start();
  }, 60_000);
  afterAll(async () => {
    await nats?.destroy();
  });
  return () => {
    if (!nats) throw new Error('nats-server is not started yet');
    return nats;
  };
}

/** A chat call's spend event on `gamma-flash` (the example config's chat group), occurring now. */
export function chatSpend(keyId: string, id: string, cost: number, more: Partial<SpendEvent> = {}): SpendEvent {
  return { id, kind: 'chat', key_id: keyId, group: 'gamma-flash', cost_nano_usd: cost, occurred_at: Date.now(), ...more };
}
