/**
 * The floor paraph's HTTP figures are measured against: a bare fastify server with better-sqlite3 that
 * answers one stored JSON row by id. Nothing else: no auth, no validation, no clock, no workers. Run as
 * a child process by the benchmark (`node bench/floor-server.ts` under tsx): it prints
 * `{"url": "...", "id": "..."}` on one line once it listens.
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const db = new Database(':memory:');
db.exec('CREATE TABLE rows (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
const id = 'sr_floor0000000000000000';
// About the size of a paraph request status with one signer.
const body = JSON.stringify({
  id,
  client_reference: 'bench',
  status: 'prepared',
  signers: [{ id: 'sig_0000000000000000', reference: 'client', email: 'client@example.com', status: 'pending' }],
  fields: [{ signer_reference: 'client', type: 'text', page: 1, x: 72, y: 72, width: 180, height: 20 }],
  artifacts: { signed_pdf: false, evidence_pdf: false, evidence_json: false },
  created_at: new Date(0).toISOString(),
});
db.prepare('INSERT INTO rows (id, body) VALUES (?, ?)').run(id, body);
const byId = db.prepare<[string], { body: string }>('SELECT body FROM rows WHERE id = ?');

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/rows/:id', async (request, reply) => {
  const row = byId.get(request.params.id);
  if (!row) return reply.code(404).send({ error: 'not found' });
  return reply.type('application/json; charset=utf-8').send(row.body);
});
app.get('/healthz', async () => ({ ok: true }));

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ url: address, id })}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
