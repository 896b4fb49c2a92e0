import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { verifyAuditTrail } from '../features/artifacts/verify-audit-trail.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, type Io } from './output.js';

/** The trail does not verify: exit 1, the first broken event named on stderr. */
class BrokenTrail extends Error {
  override name = 'BrokenTrail';
}

/** `paraph audit verify REQUEST_ID`: recompute a request's hash-chained audit trail. */
export function auditCommand(io: Io, env: Env): Command {
  const audit = new Command('audit').description("a request's tamper-evident audit trail");
  audit
    .command('verify')
    .description("check the hash chain of a request's audit trail; exit 1 naming the first broken event")
    .argument('<request_id>')
    .option('--json', 'print JSON: {signature_request_id, events, head, intact, broken}')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; dataDir?: string }) => {
      const result = await withContext(opts, env, (ctx) => verifyAuditTrail(ctx, id));
      if (opts.json) printJson(io, result);
      if (result.broken) throw new BrokenTrail(`audit trail of ${id} is broken at event #${result.broken.id}: ${result.broken.message}`);
      if (!opts.json) io.out(`Audit trail of ${id}: ${result.events} events, hash chain intact.\nChain head: ${result.head}`);
    });
  return audit;
}
