/**
 * The floor paraph's SMTP catcher is measured against: a bare smtp-server (the library the catcher is
 * built on) that reads each message to its end and discards it: no parsing, no storage. Same options
 * as the catcher (any sender, no auth needed, no STARTTLS). Run as a child process by the benchmark
 * (`node bench/smtp-floor.ts`, types stripped): it prints `{"port": N}` on one line once it listens.
 */
import { SMTPServer } from 'smtp-server';

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => callback());
  },
});
server.listen(0, '127.0.0.1', () => {
  const address = server.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
