import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  addMetadataHeaders,
  decodeStatusMessage,
  decodeTimeout,
  encodeStatusMessage,
  encodeTimeout,
  FrameError,
  frameMessage,
  MessageReader,
  metadataOfHeaders,
  statusOfTrailers,
} from '../src/h2-wire.js';
import { wireTransportOf } from '../src/options.js';

describe('the gRPC wire format', () => {
  it('reads messages however DATA chunks split or join them', () => {
    const messages = [Buffer.from('first'), Buffer.alloc(0), Buffer.alloc(70_000, 7), Buffer.from('last')];
    const wire = Buffer.concat(messages.map(frameMessage));
    for (const size of [1, 3, 5, 6, 4096, wire.length]) {
      const reader = new MessageReader(1 << 20);
      const read: Buffer[] = [];
      for (let offset = 0; offset < wire.length; offset += size) read.push(...reader.push(wire.subarray(offset, offset + size)));
      expect(read).toEqual(messages);
      expect(reader.partial).toBe(false);
    }
  });

  it('refuses a compressed message and one larger than the limit', () => {
    const compressed = frameMessage(Buffer.from('x'));
    compressed[0] = 1;
    expect(() => new MessageReader(10).push(compressed)).toThrow(FrameError);
    try {
      new MessageReader(10).push(frameMessage(Buffer.alloc(11)));
    } catch (error) {
      expect((error as FrameError).status).toBe(grpc.status.RESOURCE_EXHAUSTED);
    }
    const reader = new MessageReader(10);
    expect(reader.push(frameMessage(Buffer.from('abc')).subarray(0, 6))).toEqual([]);
    expect(reader.partial).toBe(true);
  });

  it('carries metadata as header fields, binary values in base64, protocol fields left out', () => {
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', 'req_1');
    metadata.add('multi', 'a');
    metadata.add('multi', 'b');
    metadata.set('trace-bin', Buffer.from([0, 1, 255]));
    const headers = addMetadataHeaders({ ':path': '/x' }, metadata);
    expect(headers).toEqual({ ':path': '/x', 'x-request-id': 'req_1', multi: ['a', 'b'], 'trace-bin': ['AAH/'] });
    const back = metadataOfHeaders({
      ':status': '200',
      'content-type': 'application/grpc',
      'grpc-timeout': '5m',
      'x-request-id': 'req_1',
      multi: ['a', 'b'],
      'trace-bin': 'AAH/,AQ==',
    });
    expect(back.getMap()).toEqual({ 'x-request-id': 'req_1', multi: 'a', 'trace-bin': Buffer.from([0, 1, 255]) });
    expect(back.get('multi')).toEqual(['a', 'b']);
    expect(back.get('trace-bin')).toEqual([Buffer.from([0, 1, 255]), Buffer.from([1])]);
  });

  it('encodes deadlines in at most 8 digits, rounding up, and reads every unit', () => {
    expect(encodeTimeout(4999.2)).toBe('5000m');
    expect(encodeTimeout(-3)).toBe('0m');
    expect(encodeTimeout(1e9)).toBe('1000000S');
    expect(decodeTimeout('5000m')).toBe(5000);
    expect(decodeTimeout('2S')).toBe(2000);
    expect(decodeTimeout('1M')).toBe(60_000);
    expect(decodeTimeout('1H')).toBe(3_600_000);
    expect(decodeTimeout('1500u')).toBe(1.5);
    expect(decodeTimeout('123456789m')).toBeUndefined();
    expect(decodeTimeout('5x')).toBeUndefined();
  });

  it('percent-encodes status messages outside printable ASCII and reads them back', () => {
    expect(encodeStatusMessage('plain text')).toBe('plain text');
    const message = 'budget 100% spent — nicht genug\n';
    const encoded = encodeStatusMessage(message);
    expect(encoded).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeStatusMessage(encoded)).toBe(message);
    expect(decodeStatusMessage('bad %zz escape')).toBe('bad %zz escape');
  });

  it('reads the status of trailers, UNKNOWN when it is missing or unknown', () => {
    const status = statusOfTrailers({ 'grpc-status': '8', 'grpc-message': 'too%20many', 'gateway-error-code': 'rate_limited' });
    expect(status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(status.details).toBe('too many');
    expect(status.metadata.get('gateway-error-code')).toEqual(['rate_limited']);
    expect(statusOfTrailers({}).code).toBe(grpc.status.UNKNOWN);
    expect(statusOfTrailers({ 'grpc-status': '99' }).code).toBe(grpc.status.UNKNOWN);
  });
});

describe('the transport choice', () => {
  it('is h2 unless GATEWAY_GRPC_TRANSPORT says grpc-js, and refuses anything else', () => {
    expect(wireTransportOf({})).toBe('h2');
    expect(wireTransportOf({ GATEWAY_GRPC_TRANSPORT: '' })).toBe('h2');
    expect(wireTransportOf({ GATEWAY_GRPC_TRANSPORT: 'h2' })).toBe('h2');
    expect(wireTransportOf({ GATEWAY_GRPC_TRANSPORT: 'grpc-js' })).toBe('grpc-js');
    expect(() => wireTransportOf({ GATEWAY_GRPC_TRANSPORT: 'grpc' })).toThrow(/GATEWAY_GRPC_TRANSPORT must be h2 or grpc-js, not "grpc"/);
  });
});
