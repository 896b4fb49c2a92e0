import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { DURATION_SYNTAX, durationMistake, parseDuration } from '../domain/duration.js';
import { clockAdvanceMistake } from '../domain/limits.js';
import { advanceClock } from '../features/sandbox/advance-clock.js';
import { clockState } from '../features/sandbox/clock-state.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, UsageError, type Io } from './output.js';

export function clockCommand(io: Io, env: Env): Command {
  const clock = new Command('clock').description('show or move the sandbox clock');
  const print = (state: { now: string; offset_seconds: number }, json?: boolean) =>
    json ? printJson(io, state) : io.out(`sandbox time ${state.now} (${formatOffset(state.offset_seconds)} ahead of real time)`);

  clock
    .command('show')
    .description('the sandbox time and how far it is ahead of real time')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { json?: boolean; dataDir?: string }) => print(await withContext(opts, env, clockState), opts.json));

  clock
    .command('advance')
    .description('move the clock forward (90s, 2h, 11d, 1d12h) and run every job that falls due, in order')
    .argument('<duration>', `how far: ${DURATION_SYNTAX}`)
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (duration: string, opts: { json?: boolean; dataDir?: string }) => {
      const ms = parseDuration(duration);
      if (ms === null) throw new UsageError(durationMistake(duration));
      const tooFar = clockAdvanceMistake(ms, duration);
      if (tooFar !== null) throw new UsageError(tooFar);
      print(
        await withContext(opts, env, async (ctx) => {
          await advanceClock(ctx, ms);
          return clockState(ctx);
        }),
        opts.json,
      );
    });
  return clock;
}

function formatOffset(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts = [d && `${d}d`, h && `${h}h`, m && `${m}m`, (s || seconds === 0) && `${s}s`].filter(Boolean);
  return parts.join(' ');
}
