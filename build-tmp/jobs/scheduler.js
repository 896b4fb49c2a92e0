import { Cron } from 'croner';
import { runDueJobs } from './run-due-jobs.js';
/**
 * The tick inside `serve`: every second it runs what fell due on the sandbox clock, including work
 * that a CLI process on the same data directory committed. Ticks never overlap.
 */
export function startScheduler(ctx) {
    let running = Promise.resolve();
    const job = new Cron('* * * * * *', { protect: true, unref: true }, () => {
        running = runDueJobs(ctx, { deliverWebhooks: false }).then(() => undefined, (error) => ctx.log.error({ err: error }, 'scheduled jobs failed'));
        return running;
    });
    return {
        async stop() {
            job.stop();
            await running;
        },
    };
}
//# sourceMappingURL=scheduler.js.map