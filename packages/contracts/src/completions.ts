import { randomUUID } from 'node:crypto';

// The completion id: chosen by the edge (so a call sent twice is billed once), or by chat when
// a caller did not; it is also the spend event's idempotency id, and so the key of its ledger
// entry.

/**
 * 32 hex digits: the creation time in milliseconds (12 digits), then 80 random bits. Ids made
 * later sort later, so the ledger (a table ordered by id) appends each entry beside the last
 * one. Random ids put every entry in a different page of a large table: a page read and a page
 * written to disk per call, where ordered ids share one page among a batch's entries
 * (`bench/history/2026-11-28-results-diary.md`, "Time-ordered ids"). randomUUID draws from a buffered entropy pool, so it
 * is cheap per call; its version and variant digits are left out.
 */
export function timeOrderedHex(now: number = Date.now()): string {
  const random = randomUUID();
  return now.toString(16).padStart(12, '0') + random.slice(0, 8) + random.slice(9, 13) + random.slice(24, 32);
}

export function newCompletionId(): string {
  return `chatcmpl-${timeOrderedHex()}`;
}

/** An Anthropic Messages API message's id: chosen by the edge, so a call sent twice bills once. */
export function newMessageId(): string {
  return `msg_${timeOrderedHex()}`;
}

/** A Responses API response's id: chosen by the edge, so a call sent twice bills and stores once. */
export function newResponseId(): string {
  return `resp_${timeOrderedHex()}`;
}
