// The CLI's `keys` commands talk to a running gateway's admin API, like any operator tool.

export interface AdminTarget {
  /** The edge's base URL. */
  url: string;
  token: string;
}

export class AdminApiError extends Error {
  override readonly name = 'AdminApiError';
  readonly code: string;
  readonly status: number;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function adminRequest(target: AdminTarget, method: string, path: string, body?: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(new URL(path, target.url), {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    // fetch's own message is "fetch failed"; the reason is its cause's code (ECONNREFUSED, …).
    const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why =
      typeof cause?.code === 'string'
        ? cause.code
        : (error as Error).name === 'TimeoutError'
          ? 'no answer in 10 s'
          : typeof cause?.message === 'string'
            ? cause.message
            : (error as Error).message;
    throw new AdminApiError(0, 'unreachable', `cannot reach the gateway at ${target.url}: ${why}`);
  }
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new AdminApiError(response.status, 'not_the_gateway', `${target.url} answered ${response.status} with something other than JSON`);
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new AdminApiError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`);
  }
  return parsed;
}
