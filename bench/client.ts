/**
 * The API calls the benches make, as a client would: create (multipart: `document` + `request`),
 * activate, status, and the signer's JSON API under a signing link. Keys, tokens and signing links
 * stay in memory: nothing here prints them, and errors name the call and the status, not the URL.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

export interface Client {
  api: string;
  key: string;
}

export interface Status {
  id: string;
  status: string;
  signers: Array<{ reference: string; status: string }>;
  artifacts: { signed_pdf: boolean; evidence_pdf: boolean; evidence_json: boolean };
}

/** Two signers, each with one signature field on `page` (they may sign in any order). */
export function twoSignerPayload(clientReference: string, page = 1): Record<string, unknown> {
  return {
    client_reference: clientReference,
    signers: [
      { reference: 'a', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
      { reference: 'b', name: 'Grace Hopper', email: 'grace@example.com', order: 2 },
    ],
    fields: ['a', 'b'].map((ref, i) => ({ signer_reference: ref, type: 'signature', page, x: 72 + i * 230, y: 600, width: 180, height: 40 })),
  };
}

/** A create request's body: its parts in order (the PDF part shared by every body of one `createBody`). */
export interface CreateBody {
  parts: Buffer[];
  length: number;
  contentType: string;
}

/**
 * A create body for one PDF, built once: each call only makes the JSON part, and the parts are
 * written to the socket one after the other, never joined into one buffer, so the client spends its
 * time sending, not copying the PDF (the server still reads and checks every byte).
 */
export function createBody(pdf: Uint8Array, filename = 'bench.pdf'): (payload: Record<string, unknown>) => CreateBody {
  const boundary = `----paraphbench${randomBytes(8).toString('hex')}`;
  const head = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="request"\r\nContent-Type: application/json\r\n\r\n`),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return (payload) => {
    const json = Buffer.from(JSON.stringify(payload));
    return { parts: [head, json, tail], length: head.length + json.length + tail.length, contentType: `multipart/form-data; boundary=${boundary}` };
  };
}

const auth = (client: Client) => ({ authorization: `Bearer ${client.key}` });

/** Keep-alive connections for the creates (node:http: fetch copies a body twice before sending it). */
const createAgent = new http.Agent({ keepAlive: true, maxSockets: 16 });

/** POST /v1/signature-requests with a prepared body; answers the new id (a 201 is required). */
export async function create(client: Client, made: CreateBody): Promise<string> {
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request(
      `${client.api}/signature-requests`,
      { method: 'POST', agent: createAgent, headers: { ...auth(client), 'content-type': made.contentType, 'content-length': made.length } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    for (const part of made.parts) request.write(part);
    request.end();
  });
  if (status !== 201) throw new Error(`create answered ${status}: ${text.slice(0, 300)}`);
  return (JSON.parse(text) as { id: string }).id;
}

/** POST /activate (no mail); answers each signer's signing link, by reference. */
export async function activate(client: Client, id: string): Promise<Map<string, string>> {
  const answer = await fetch(`${client.api}/signature-requests/${id}/activate`, {
    method: 'POST',
    headers: { ...auth(client), 'content-type': 'application/json' },
    body: '{}',
  });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`activate answered ${answer.status}: ${text.slice(0, 300)}`);
  const body = JSON.parse(text) as { signers: Array<{ reference: string; signing_url: string }> };
  return new Map(body.signers.map((s) => [s.reference, s.signing_url]));
}

export async function status(client: Client, id: string): Promise<Status> {
  const answer = await fetch(`${client.api}/signature-requests/${id}`, { headers: auth(client) });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`GET request answered ${answer.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Status;
}

export const allArtifacts = (s: Status) => s.artifacts.signed_pdf && s.artifacts.evidence_pdf && s.artifacts.evidence_json;

/** POSTs to the signer's JSON API under a signing link (`<link>/api/<action>`), as the signing page does. */
export async function signerAction(link: string, action: 'view' | 'sign', body: unknown = {}): Promise<void> {
  const url = new URL(link);
  url.pathname = `${url.pathname}/api/${action}`;
  url.search = '';
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await answer.text();
  if (answer.status !== 200) throw new Error(`signer ${action} answered ${answer.status}: ${text.slice(0, 300)}`);
}

/** view, then sign with a typed signature. */
export async function viewAndSign(link: string, name: string): Promise<void> {
  await signerAction(link, 'view');
  await signerAction(link, 'sign', { signature: { type: 'typed', text: name } });
}
