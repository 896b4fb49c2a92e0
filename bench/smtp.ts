/**
 * SMTP ingest: paraph's catcher vs maildev (and vs a bare smtp-server that discards mail, the floor,
 * which also stands in for maildev when maildev cannot be installed or started). The same client for
 * all: nodemailer (a paraph dependency) with a pool of 5 connections, N small mails (text + HTML, a
 * few hundred bytes) sent as fast as it goes; the rate is mails/s until every one was accepted
 * (250). For paraph and maildev the caught mails are then counted, so the rate is of mail kept.
 * Each target runs twice, alternating.
 *
 * The mail is composed once (nodemailer's MIME builder) and each send hands nodemailer that source
 * with its own subject: composing costs the client about as much CPU as a server spends receiving,
 * and on two cores a client busy composing measures itself rather than the server. The CPU time the
 * server process spent per mail (user + system, from /proc) is reported beside the rate: it does not
 * depend on how fast the client is or on what else the machine is doing.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import nodemailer from 'nodemailer';
import { startMaildev } from './peers.js';
import { stopGently, track, untilListening } from './proc.js';
import { readyLine } from './serve-ready.js';
import { ROOT, startServe } from './serve.js';
import { fmt, mean } from './stats.js';

const TEXT =
  "Hello,\n\nThis is a benchmark message from paraph's bench. It carries a few hundred bytes of text so the catcher has something to parse and store, like a short notification would.\n\nRegards,\nThe bench\n";
const HTML = `<html><body><p>Hello,</p><p>This is a benchmark message from paraph's bench. It carries a few hundred bytes of HTML so the catcher has something to parse and store.</p><p>Regards,<br>The bench</p></body></html>`;

/** The bench mail's source as nodemailer composes it, with `SUBJECT` where each mail's subject goes. */
async function composedMail(): Promise<string> {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const info = await composer.sendMail({ from: 'bench@example.com', to: 'rcpt@example.com', subject: 'SUBJECT', text: TEXT, html: HTML });
  return (info.message as Buffer).toString('utf8');
}

/** CPU time (user + system) a process has used, in ms, or null when it cannot be read. */
function cpuMs(pid: number): number | null {
  try {
    const fields = fs
      .readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command name: state is field 3, utime and stime are fields 14 and 15 (clock ticks).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
const CLOCK_TICKS = 100;

/** Sends `count` mails through a pool of 5 connections; answers mails/s until all were accepted. */
async function send(port: number, count: number, tag: string, source: string): Promise<number> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 5,
    // Keep the 5 connections for the whole batch (the default reconnects every 100 messages).
    maxMessages: Infinity,
  });
  try {
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        transport.sendMail({
          envelope: { from: 'bench@example.com', to: [`rcpt${i % 10}@example.com`] },
          raw: source.replace('Subject: SUBJECT', `Subject: ${tag} #${i}`),
        }),
      ),
    );
    const elapsed = performance.now() - started;
    const refused = results.filter((r) => r.rejected.length > 0).length;
    if (refused > 0) throw new Error(`${refused} of ${count} mails were refused`);
    return (count / elapsed) * 1000;
  } finally {
    transport.close();
  }
}

interface Target {
  name: string;
  port: number;
  /** The process that receives the mail, for its CPU time. */
  pid: number;
  /** Mails with `tag` in their subject that the target kept; null when it keeps none. */
  count: ((tag: string) => Promise<number>) | null;
  stop(): Promise<unknown>;
}

async function startFloor(): Promise<Target> {
  const child = track(
    spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', path.join(ROOT, 'bench/smtp-floor.ts')], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const { port } = (await readyLine(child)) as unknown as { port: number };
  await untilListening(port, { child });
  return { name: 'bare smtp-server (discards)', port, pid: child.pid as number, count: null, stop: () => stopGently(child) };
}

export interface SmtpResult {
  mails: number;
  paraph: number[];
  paraphMean: number;
  /** CPU time of the receiving process per mail, ms (null when /proc could not be read). */
  paraphCpuMsPerMail: number | null;
  maildev: { name: string; rates: number[]; mean: number; cpuMsPerMail: number | null } | null;
  maildevNote: string;
  floor: { rates: number[]; mean: number; cpuMsPerMail: number | null };
  ratioVsMaildev: number | null;
  ratioVsFloor: number;
}

export async function benchSmtp(mails: number): Promise<SmtpResult> {
  // The catcher keeps 5000 messages by default; keep every one sent here (warm-ups included) so the count is exact.
  const keep = 2 * (mails + 100);
  const serve = await startServe({ scenario: 'SMTP catcher', args: keep > 5000 ? ['--smtp-max-messages', String(keep)] : [] });
  const db = () => new Database(path.join(serve.banner.data_dir, 'paraph.db'), { readonly: true, fileMustExist: true });
  const targets: Target[] = [
    {
      name: 'paraph',
      port: serve.banner.smtp_port,
      pid: serve.pid,
      // Mail from other clients belongs to no account, so /_sandbox/emails (scoped to the key's account)
      // does not list it: count in the database, as `paraph emails list` (the operator's view) reads it.
      count: async (tag) => {
        const handle = db();
        try {
          return (handle.prepare('SELECT count(*) AS n FROM emails WHERE subject LIKE ?').get(`${tag} #%`) as { n: number }).n;
        } finally {
          handle.close();
        }
      },
      stop: () => serve.stop(),
    },
  ];
  let maildevNote = '';
  const maildev = await startMaildev();
  if (maildev.ok) {
    targets.push({ name: maildev.name, port: maildev.smtpPort, pid: maildev.pid, count: (tag) => maildev.count(tag), stop: () => maildev.stop() });
    maildevNote = maildev.name;
  } else {
    maildevNote = `maildev unavailable: ${maildev.reason}`;
    console.log(`SMTP: ${maildevNote}; the bare smtp-server floor stands in for it`);
  }
  const floor = await startFloor();
  targets.push(floor);
  const rates = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const cpu = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const source = await composedMail();
  try {
    for (const target of targets) await send(target.port, 100, `warmup-${randomBytes(3).toString('hex')}`, source);
    for (let round = 0; round < 2; round += 1) {
      for (const target of targets) {
        const tag = `bench-${randomBytes(4).toString('hex')}`;
        const cpuBefore = cpuMs(target.pid);
        const rate = await send(target.port, mails, tag, source);
        const cpuAfter = cpuMs(target.pid);
        if (cpuBefore !== null && cpuAfter !== null) cpu.get(target.name)?.push((cpuAfter - cpuBefore) / mails);
        if (target.count) {
          // Every accepted mail must be there: the catcher answers 250 after it stored the message.
          const deadline = performance.now() + 10_000;
          let caught = await target.count(tag);
          while (caught < mails && performance.now() < deadline) caught = await target.count(tag);
          if (caught !== mails) throw new Error(`${target.name} kept ${caught} of the ${mails} mails it accepted`);
        }
        rates.get(target.name)?.push(rate);
      }
    }
  } finally {
    for (const target of targets) await target.stop();
  }
  const cpuOf = (name: string) => {
    const values = cpu.get(name) ?? [];
    return values.length > 0 ? mean(values) : null;
  };
  const paraph = rates.get('paraph') ?? [];
  const maildevRates = maildev.ok ? (rates.get(maildev.name) ?? []) : null;
  const floorRates = rates.get(floor.name) ?? [];
  const result: SmtpResult = {
    mails,
    paraph,
    paraphMean: mean(paraph),
    paraphCpuMsPerMail: cpuOf('paraph'),
    maildev: maildev.ok && maildevRates ? { name: maildev.name, rates: maildevRates, mean: mean(maildevRates), cpuMsPerMail: cpuOf(maildev.name) } : null,
    maildevNote,
    floor: { rates: floorRates, mean: mean(floorRates), cpuMsPerMail: cpuOf(floor.name) },
    ratioVsMaildev: maildevRates ? mean(paraph) / mean(maildevRates) : null,
    ratioVsFloor: mean(paraph) / mean(floorRates),
  };
  const ms = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(3)} ms`);
  const runs = (xs: number[]) => xs.map((x) => fmt(x)).join(' and ');
  console.log(
    `SMTP ingest, ${mails} mails, nodemailer pool of 5: paraph ${fmt(result.paraphMean)} mails/s (${runs(paraph)}), all caught; ` +
      (result.maildev ? `${result.maildev.name} ${fmt(result.maildev.mean)} mails/s (${runs(result.maildev.rates)}), all caught; ` : '') +
      `bare smtp-server ${fmt(result.floor.mean)} mails/s (${runs(floorRates)}); ` +
      (result.ratioVsMaildev !== null ? `paraph ${result.ratioVsMaildev.toFixed(2)}x maildev, ` : '') +
      `${result.ratioVsFloor.toFixed(2)}x the floor; server CPU per mail: paraph ${ms(result.paraphCpuMsPerMail)}` +
      (result.maildev ? `, ${result.maildev.name} ${ms(result.maildev.cpuMsPerMail)}` : '') +
      `, bare smtp-server ${ms(result.floor.cpuMsPerMail)}`,
  );
  return result;
}
