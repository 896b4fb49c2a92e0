/**
 * A server paraph's clients (the CLI, the signer client, the programmatic sandbox) could not reach: why,
 * for a person ("connection refused", else the error's code or message), and the message that says what
 * to do next.
 */
export function reachFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code === 'ECONNREFUSED' ? 'connection refused' : cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** "cannot reach http://127.0.0.1:4010 (connection refused): is `paraph serve` running there?" */
export function cannotReach(origin: string, error: unknown): string {
  return `cannot reach ${origin} (${reachFailure(error)}): is \`paraph serve\` running there?`;
}
