/**
 * The child processes that read untrusted PDFs (upload inspection, field detection): started from their
 * module beside this one, with a V8 heap cap and an IPC channel, and stopped for good on close.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Forks `name` (`inspect-child`, `detect-child`). From the sources under tsx this module is a .ts file
 * and the child loads its entry through tsx; compiled, both are .js files side by side in dist/. The
 * child gets none of the parent's flags: some break it (with --input-type it cannot load its file).
 */
export function forkPdfChild(name: 'inspect-child' | 'detect-child', args: string[], maxOldSpaceMb: number): ChildProcess {
  const self = new URL(import.meta.url);
  const fromSource = self.pathname.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./${name}${fromSource ? '.ts' : '.js'}`, self));
  const execArgv = [...(fromSource ? ['--import', import.meta.resolve('tsx')] : []), `--max-old-space-size=${maxOldSpaceMb}`];
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
