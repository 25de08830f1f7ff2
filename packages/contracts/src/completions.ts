import { randomUUID } from 'node:crypto';

// The completion id: chosen by the edge (so a call sent twice is billed once), or by chat when
// a caller did not; it is also the spend event's idempotency id.

/** 122 random bits; randomUUID draws from a buffered entropy pool, so it is cheap per call. */
export function newCompletionId(): string {
  return `chatcmpl-${randomUUID().replaceAll('-', '')}`;
}
