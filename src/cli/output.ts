import { ConfigError } from '../platform/config.js';
import { isParaphError } from '../domain/errors.js';

/** Exit codes of every command: 0 success, 1 an error, 2 bad usage. */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

export class UsageError extends Error {
  override name = 'UsageError';
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** A plain table: header row, then rows, columns padded to their widest cell. */
export function printTable(io: Io, headers: string[], rows: string[][]): void {
  io.out(formatTable(headers, rows));
}

export function formatTable(headers: string[], rows: string[][], indent = ''): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    indent +
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export function exitCodeOf(error: unknown): number {
  return error instanceof UsageError || error instanceof ConfigError ? EXIT_USAGE : EXIT_ERROR;
}

export function messageOf(error: unknown): string {
  if (isParaphError(error) || error instanceof UsageError || error instanceof ConfigError) return error.message;
  const e = error as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE')
    return `address already in use: ${e.message.replace(/^listen EADDRINUSE: address already in use /, '')} (choose another --port, or 0 for a free one)`;
  return e instanceof Error ? e.message : String(error);
}
