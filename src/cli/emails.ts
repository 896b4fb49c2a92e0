import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { listCaughtEmails, showCaughtEmail } from '../features/mail/caught-emails.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, printTable, type Io } from './output.js';

export function emailsCommand(io: Io, env: Env): Command {
  const emails = new Command('emails').description('mail caught by the built-in SMTP catcher');

  emails
    .command('list')
    .description('caught mail, newest first')
    .option('--to <address>', 'only mail to this recipient')
    .option('--json', 'print JSON (with text and html)')
    .addOption(dataDirOption())
    .action(async (opts: { to?: string; json?: boolean; dataDir?: string }) => {
      const list = await withContext(opts, env, (ctx) => listCaughtEmails(ctx, { accountId: null, to: opts.to }));
      if (opts.json) return printJson(io, list);
      if (list.length === 0) return io.out('No mail caught.');
      printTable(
        io,
        ['ID', 'RECEIVED', 'TO', 'KIND', 'SUBJECT'],
        list.map((m) => [m.id, m.received_at, m.to.join(', '), m.kind ?? '-', m.subject]),
      );
    });

  emails
    .command('show')
    .description('one caught mail: headers and text')
    .argument('<id>')
    .option('--json', 'print JSON (with html and the raw source)')
    .option('--html', 'print the HTML part instead of the text')
    .addOption(dataDirOption())
    .action(async (id: string, opts: { json?: boolean; html?: boolean; dataDir?: string }) => {
      const mail = await withContext(opts, env, (ctx) => showCaughtEmail(ctx, id));
      if (opts.json) return printJson(io, mail);
      io.out(
        [
          `From:     ${mail.from}`,
          `To:       ${mail.to.join(', ')}`,
          `Subject:  ${mail.subject}`,
          `Received: ${mail.received_at}`,
          '',
          opts.html ? mail.html : mail.text,
        ].join('\n'),
      );
    });
  return emails;
}
