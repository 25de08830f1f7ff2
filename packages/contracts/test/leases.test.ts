import { GatewayError } from '@gateway/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { type AccountingClient, type BudgetAuthority, BudgetLeases } from '../src/index.js';

// Budget leases dropped on key and team changes, against a fake accounting that records its
// calls (lease numbers are the tail of the lease ids, which hold a random prefix).

interface LeaseAsk {
  keyId: string;
  leaseId: string;
  wantNanoUsd: number;
  previous?: { leaseId: string; unusedNanoUsd: number };
}

type Answer = { grantedNanoUsd: number; perCall: boolean };

function fakeAccounting() {
  const calls: string[] = [];
  /** Answers of the next renewals, in order; granted 1000 when there is none. */
  const answers: (Answer | Promise<Answer> | Error)[] = [];
  const tail = (id: string) => id.split('_').pop();
  const client = {
    leaseBudget: async (input: LeaseAsk): Promise<Answer> => {
      const previous = input.previous ? `${tail(input.previous.leaseId)}:${input.previous.unusedNanoUsd}` : '-';
      calls.push(`lease ${input.keyId} ${tail(input.leaseId)} previous=${previous}`);
      const answer = answers.shift() ?? { grantedNanoUsd: 1000, perCall: false };
      if (answer instanceof Error) throw answer;
      return answer;
    },
    releaseReservation: async (hold: { keyId: string; reservationId: string; amountNanoUsd: number }) => {
      calls.push(`release ${hold.keyId} ${tail(hold.reservationId)}:${hold.amountNanoUsd}`);
    },
  } as unknown as AccountingClient;
  const perCall: BudgetAuthority = {
    reserve: async (input) => {
      calls.push(`reserve ${input.keyId} ${input.reservationId}`);
    },
    release: async (hold) => {
      calls.push(`unreserve ${hold.keyId} ${hold.reservationId}`);
    },
  };
  return { calls, answers, client, perCall };
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const opened: BudgetLeases[] = [];
afterEach(async () => {
  for (const leases of opened.splice(0)) await leases.close();
});

function open() {
  const fake = fakeAccounting();
  const leases = new BudgetLeases(fake.client, fake.perCall, { ttlMs: 60_000 });
  opened.push(leases);
  let n = 0;
  const claim = (keyId: string, amount = 100, group = 'g') => {
    n += 1;
    return leases.claim({ keyId, group, amountNanoUsd: amount, reservationId: `chatcmpl-${n}` });
  };
  return { ...fake, leases, claim };
}

/** Give-backs are fired without waiting: let them run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('budget leases on key and team changes', () => {
  it("give a dropped key's leases back, in every group, and renew on its next call", async () => {
    const { calls, leases, claim } = open();
    await claim('key_a', 100, 'g');
    await claim('key_a', 300, 'h');
    await claim('key_b', 100, 'g');
    leases.forget({ key_id: 'key_a' });
    await settle();
    expect(calls.splice(0)).toEqual([
      'lease key_a 1 previous=-',
      'lease key_a 2 previous=-',
      'lease key_b 3 previous=-',
      'release key_a 1:900',
      'release key_a 2:700',
    ]);
    // The dropped lease is not named as previous: its rest went back already.
    await claim('key_a', 100, 'g');
    await claim('key_b', 100, 'g');
    expect(calls).toEqual(['lease key_a 4 previous=-']);
  });

  it("drop every key's leases on a team change (a lease does not know its key's team)", async () => {
    const { calls, leases, claim } = open();
    await claim('key_a');
    await claim('key_b');
    leases.forget({ key_id: '', team_id: 'team_x' });
    await settle();
    expect(calls.splice(2)).toEqual(['release key_a 1:900', 'release key_b 2:900']);
    await claim('key_b');
    expect(calls.splice(2)).toEqual(['lease key_b 3 previous=-']);
  });

  it('leave calls in flight their drawn parts: a failed one gives its part back on its own', async () => {
    const { calls, leases, claim } = open();
    const drawn = await claim('key_a', 250);
    leases.forget({ key_id: 'key_a' });
    await leases.unclaim('key_a', drawn);
    await settle();
    expect(calls).toEqual(['lease key_a 1 previous=-', 'release key_a 1:750', 'release key_a 1:250']);
  });

  it('forget that a key was held per call: its limits may have gone', async () => {
    const { calls, answers, leases, claim } = open();
    answers.push({ grantedNanoUsd: 0, perCall: true });
    await claim('key_a');
    await claim('key_a');
    expect(calls.splice(0)).toEqual(['lease key_a 1 previous=-', 'reserve key_a chatcmpl-1', 'reserve key_a chatcmpl-2']);
    leases.forget({ key_id: 'key_a' });
    expect(await claim('key_a')).toMatchObject({ lease_nano_usd: 100 });
    expect(calls).toEqual(['lease key_a 2 previous=-']);
  });

  it('give back a lease granted by a renewal that started before the drop, and renew for the calls after it', async () => {
    const { calls, answers, leases, claim } = open();
    await claim('key_a', 600);
    const pending = deferred<Answer>();
    answers.push(pending.promise);
    // 600 + 500 do not fit in 1000: this call renews, and the drop arrives while it does.
    const renewing = claim('key_a', 500);
    await settle();
    leases.forget({ key_id: 'key_a' });
    // A call after the drop waits for the renewal in flight, then must not draw from its grant.
    const after = claim('key_a', 100);
    pending.resolve({ grantedNanoUsd: 5000, perCall: false });
    const [first, second] = await Promise.all([renewing, after]);
    await settle();
    expect(calls).toEqual([
      'lease key_a 1 previous=-',
      // The renewal gave lease 1's rest back itself; its grant (lease 2) goes back whole.
      'lease key_a 2 previous=1:400',
      'release key_a 2:5000',
      'lease key_a 3 previous=-',
    ]);
    expect(first).toMatchObject({ lease_nano_usd: 500 });
    expect(second).toMatchObject({ lease_nano_usd: 100 });
    expect([first, second].map((c) => ('lease_id' in c ? c.lease_id.split('_').pop() : '')).sort()).toEqual(['3', '3']);
  });

  it('give back the previous lease when a renewal in flight at the drop fails in transport', async () => {
    const { calls, answers, leases, claim } = open();
    await claim('key_a', 600);
    const pending = deferred<Answer>();
    answers.push(pending.promise);
    const renewing = claim('key_a', 500);
    await settle();
    leases.forget({ key_id: 'key_a' });
    pending.resolve(Promise.reject(new GatewayError('service_unavailable')) as unknown as Answer);
    await expect(renewing).rejects.toMatchObject({ code: 'service_unavailable' });
    await settle();
    expect(calls).toEqual(['lease key_a 1 previous=-', 'lease key_a 2 previous=1:400', 'release key_a 1:400']);
  });

  it('ignore a per-call answer given before the drop', async () => {
    const { calls, answers, leases, claim } = open();
    const pending = deferred<Answer>();
    answers.push(pending.promise);
    const first = claim('key_a');
    await settle();
    leases.forget({ key_id: 'key_a' });
    pending.resolve({ grantedNanoUsd: 0, perCall: true });
    expect(await first).toMatchObject({ lease_nano_usd: 100 });
    expect(calls).toEqual(['lease key_a 1 previous=-', 'lease key_a 2 previous=-']);
  });
});
