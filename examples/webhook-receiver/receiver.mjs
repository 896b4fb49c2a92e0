// A webhook receiver that does what paraph's deliveries ask of it, on node:http and standardwebhooks:
//   - verifies every delivery (signature over the raw body, timestamp within 5 minutes) and answers
//     400 to one that does not verify, before reading anything in it;
//   - answers 2xx to a webhook-id it has already processed, without acting on it again (a retry);
//   - accepts events in any order: it acts on the event, never on what it expected to come before;
//   - answers at once and does the work afterwards.
// `paraph webhooks check --url http://127.0.0.1:8080/webhooks` passes every case against it.
//
//   npm install && PARAPH_WEBHOOK_SECRET=whsec_… node receiver.mjs
//
// PORT (default 8080; 0 picks a free one) and HOST (default 127.0.0.1) choose where it listens.
import http from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

const secret = process.env.PARAPH_WEBHOOK_SECRET;
if (!secret) {
  console.error('Set PARAPH_WEBHOOK_SECRET to the whsec_… secret of your API key (paraph serve prints it; paraph keys create makes another).');
  process.exit(2);
}
const webhook = new Webhook(secret);

// The webhook-ids already processed. In production: a table with a unique webhook-id column, written
// in the same transaction as what the event changes.
const processed = new Set();

/** What the application does with a verified event; here it prints it. */
async function handle(event) {
  console.log(
    `${event.type} ${event.data.signature_request_id} → ${event.data.status}${event.data.signer ? ` (${event.data.signer.reference}: ${event.data.signer.status})` : ''}`,
  );
}

const MAX_BODY_BYTES = 1024 * 1024;

const server = http.createServer((request, response) => {
  if (request.method !== 'POST') return response.writeHead(405, { allow: 'POST' }).end();
  const chunks = [];
  let size = 0;
  request.on('data', (chunk) => {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) request.destroy();
    else chunks.push(chunk);
  });
  request.on('end', () => {
    // The raw bytes, exactly as received: the signature covers them, not a re-serialised JSON.
    const body = Buffer.concat(chunks).toString('utf8');
    let event;
    try {
      event = webhook.verify(body, request.headers);
    } catch (error) {
      const reason = error instanceof WebhookVerificationError ? error.message : 'the body is not JSON';
      return response.writeHead(400, { 'content-type': 'text/plain' }).end(`rejected: ${reason}\n`);
    }
    const id = request.headers['webhook-id'];
    if (processed.has(id)) return response.writeHead(200, { 'content-type': 'text/plain' }).end('already processed\n');
    processed.add(id);
    response.writeHead(204).end();
    // After the answer: the work never holds the delivery up.
    handle(event).catch((error) => console.error(`handling ${id} failed:`, error));
  });
});

server.listen(Number(process.env.PORT ?? 8080), process.env.HOST ?? '127.0.0.1', () => {
  const { address, port } = server.address();
  console.log(`Receiving webhooks at http://${address.includes(':') ? `[${address}]` : address}:${port}/webhooks`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.close(() => process.exit(0)));
