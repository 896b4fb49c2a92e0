import { Cron } from 'croner';
import type { Context } from './context.js';
import { runDueJobs } from './features/sandbox/run-due-jobs.js';

export interface Scheduler {
  stop(): Promise<void>;
}

/**
 * The tick inside `serve`: every second it runs what fell due on the sandbox clock, including work
 * that a CLI process on the same data directory committed. Ticks never overlap.
 */
export function startScheduler(ctx: Context): Scheduler {
  let running: Promise<void> = Promise.resolve();
  const job = new Cron('* * * * * *', { protect: true, unref: true }, () => {
    running = runDueJobs(ctx, { deliverWebhooks: false }).then(
      () => undefined,
      (error: unknown) => ctx.log.error({ err: error }, 'scheduled jobs failed'),
    );
    return running;
  });
  return {
    async stop() {
      job.stop();
      await running;
    },
  };
}
