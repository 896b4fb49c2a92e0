import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** The `--json` banner of a `paraph serve` child (the fields the benches use). */
export interface Ready {
  api_url: string;
  api_key: string;
}

/** Resolves with the child's first stdout line, parsed; rejects if it exits before printing one. */
export function readyLine(child: ChildProcessByStdio<null, Readable, Readable | null>, stderr: () => string = () => ''): Promise<Ready> {
  return new Promise<Ready>((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      if (buffer.includes('\n')) resolve(JSON.parse(buffer.split('\n')[0] as string) as Ready);
    });
    child.once('exit', (code, signal) => reject(new Error(`serve exited (${code ?? signal}) before it was ready${stderr() ? `: ${stderr()}` : ''}`)));
  });
}
