#!/usr/bin/env node
// Cost per spend event of the bus's wire form: protobuf (gateway.events.v1.SpendEvent) against
// the JSON it replaced, encode and decode (with the consumer's checks). Run after `npm run build`.
//   node bench/events.mjs
import { decodeSpendEvent, encodeSpendEvent } from '../packages/contracts/dist/index.js';

const event = {
  id: 'chatcmpl-3f9c2a7e1b6d4c0a9e8f7a6b5c4d3e2f',
  kind: 'chat',
  key_id: 'key_s0P3rz2Xc3cA_9a3',
  group: 'gamma-flash',
  cost_nano_usd: 1_234_567,
  occurred_at: Date.now(),
  usage: { prompt_tokens: 812, completion_tokens: 240, reasoning_tokens: 0 },
  lease_id: 'lease_a1b2c3d4e5f6_1k',
  lease_nano_usd: 9_000_000,
};
const N = 200_000;
function time(label, run) {
  for (let i = 0; i < 20_000; i += 1) run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i += 1) run();
  const ns = Number(process.hrtime.bigint() - start) / N;
  console.log(`${label.padEnd(28)} ${(ns / 1000).toFixed(2)} µs`);
}
const bytes = encodeSpendEvent(event);
const json = Buffer.from(JSON.stringify(event));
console.log(`size: protobuf ${bytes.length} bytes, JSON ${json.length} bytes`);
time('protobuf encode', () => encodeSpendEvent(event));
time('protobuf decode + check', () => decodeSpendEvent(bytes, 'spend.v1.chat'));
time('JSON encode', () => Buffer.from(JSON.stringify(event)));
time('JSON decode + check', () => decodeSpendEvent(JSON.parse(json.toString()), 'spend.v1.chat'));
