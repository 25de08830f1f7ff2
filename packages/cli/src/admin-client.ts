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
    throw new AdminApiError(0, 'unreachable', `cannot reach the gateway at ${target.url} (${(error as Error).message})`);
  }
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new AdminApiError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`);
  }
  return parsed;
}
