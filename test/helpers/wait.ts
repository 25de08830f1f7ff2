// Small waits every test suite needs, in one place.

/** Resolves once `check` holds, polling every 20 ms; throws after `ms`. */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export { freePort } from '@gateway/runtime';
