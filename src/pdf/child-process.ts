/**
 * The child processes that read untrusted PDFs (upload inspection, field detection): started from their
 * module beside this one, with a V8 heap cap and an IPC channel, and stopped for good on close.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FROM_SOURCE, ownModuleUrl } from '../platform/package-files.js';

/**
 * Forks `name` (`inspect-child`, `detect-child`): from the sources under tsx the child loads its .ts
 * entry through tsx; otherwise it runs the compiled module in dist/pdf. The child gets none of the
 * parent's flags: some break it (with --input-type it cannot load its file).
 */
export function forkPdfChild(name: 'inspect-child' | 'detect-child', args: string[], maxOldSpaceMb: number): ChildProcess {
  const entry = fileURLToPath(ownModuleUrl(`pdf/${name}`));
  const execArgv = [...(FROM_SOURCE ? ['--import', import.meta.resolve('tsx')] : []), `--max-old-space-size=${maxOldSpaceMb}`];
  return fork(entry, args, { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
}

/** Kills `child` if it still runs, and resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // An idle child is unreferenced: hold the loop open until it is gone.
  child.ref();
  child.kill('SIGKILL');
  await exited;
}
