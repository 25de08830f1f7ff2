import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@gateway/logging';
import { SqliteStore } from '@gateway/store';
import { NatsBus, openOutbox } from '../src/index.js';

// A NatsBus for a test: its own outbox in a temporary folder; `cleanup` closes both and removes it.

export async function openTestBus(
  servers: string,
  name: string,
  options: { streamName: string; publishTimeoutMs: number; streamSubjects?: readonly string[] },
): Promise<{ bus: NatsBus; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'gateway-outbox-'));
  const store = new SqliteStore(dir);
  const outbox = await openOutbox(store, { byDueTime: true });
  // The bus has no default stream; tests use the spend subjects' shape.
  const bus = await NatsBus.connect({ servers, logger: silentLogger(), name, outbox, streamSubjects: ['spend.v1.>'], ...options });
  return {
    bus,
    cleanup: async () => {
      await bus.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
