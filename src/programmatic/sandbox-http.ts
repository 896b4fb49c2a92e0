import { cannotReach } from '../platform/unreachable-server.js';

/** An answer of paraph outside 2xx, with the API's error envelope taken apart. */
export class SandboxRequestError extends Error {
  override name = 'SandboxRequestError';
  readonly status: number;
  /** The envelope's `error.code` (`not_found`, `unauthorized`, …), or `http_<status>` when there was none. */
  readonly code: string;
  readonly requestId: string | null;

  constructor(status: number, code: string, message: string, requestId: string | null) {
    super(message);
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/** A call to paraph with a bearer key: `path` is absolute on the server (`/v1/…`, `/_sandbox/…`). */
export async function sandboxFetch<T>(origin: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${origin}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }).catch(
    (error: unknown) => {
      throw new Error(cannotReach(origin, error), { cause: error });
    },
  );
  const text = await response.text();
  if (!response.ok) {
    let envelope: { error?: { code?: string; message?: string; request_id?: string } } = {};
    try {
      envelope = JSON.parse(text) as typeof envelope;
    } catch {
      // not JSON: the status says it
    }
    throw new SandboxRequestError(
      response.status,
      envelope.error?.code ?? `http_${response.status}`,
      `${method} ${path} answered ${response.status}: ${envelope.error?.message ?? (text.slice(0, 200) || response.statusText)}`,
      envelope.error?.request_id ?? response.headers.get('x-request-id'),
    );
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** Calls `probe` until it answers something other than undefined, or fails when `timeoutMs` has passed. */
export async function poll<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
