import { REQUEST_STATUSES, type RequestStatus } from '../domain/request-states.js';
import { Command, Option } from 'commander';
import type { Env } from '../platform/config.js';
import { listAllRequests, showRequest } from '../features/dashboard/operator-requests.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, printTable, type Io } from './output.js';

const STATUSES: readonly string[] = REQUEST_STATUSES;

export function requestsCommand(io: Io, env: Env): Command {
  const requests = new Command('requests').description('signature requests of every account (operator view)');

  requests
    .command('list')
    .description('requests of every account, newest first')
    .addOption(new Option('--status <status>', 'only requests in this status').choices(STATUSES))
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (opts: { status?: RequestStatus; json?: boolean; dataDir?: string }) => {
      const list = await withContext(opts, env, (ctx) => listAllRequests(ctx, { status: opts.status }));
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out('No signature requests.');
      printTable(
        io,
        ['ID', 'STATUS', 'CLIENT REFERENCE', 'ACCOUNT', 'CREATED', 'RETENTION'],
        list.map((r) => [r.id, r.status, r.client_reference, r.account_id, r.created_at, r.retention_expires_at ?? '-']),
      );
    });

  requests
    .command('show')
    .description('one request: status, signers, document and audit trail (and its fields, with --json)')
    .argument('<request_id>')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; dataDir?: string }) => {
      const view = await withContext(opts, env, (ctx) => showRequest(ctx, id));
      if (opts.json) return printJson(io, view);
      io.out(
        [
          `Request    ${view.id}  (${view.status})`,
          `Reference  ${view.client_reference}`,
          `Account    ${view.account_id}`,
          `Document   ${view.document.filename}, ${view.document.pages} page(s), ${view.document.size} bytes${view.document.purged ? ', purged' : ''}`,
          `Created    ${view.created_at}   retention until ${view.retention_expires_at ?? '-'}`,
          '',
        ].join('\n'),
      );
      printTable(
        io,
        ['SIGNER', 'NAME', 'EMAIL', 'ORDER', 'STATUS', 'LINK EXPIRES', 'SIGNED'],
        view.signers.map((s) => [s.reference, s.name || '-', s.email, String(s.order), s.status, s.expires_at ?? '-', s.signed_at ?? '-']),
      );
      io.out('');
      printTable(
        io,
        ['#', 'AUDIT EVENT', 'ACTOR', 'AT'],
        view.audit.map((a) => [String(a.id), a.type, a.actor_email ? `${a.actor_type} ${a.actor_email}` : a.actor_type, a.created_at]),
      );
    });
  return requests;
}
