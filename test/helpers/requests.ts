import { makePdf } from './pdfs.js';

/** A valid create payload: one signer with one signature field on page 1 of an A4 page. */
export function payload(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    client_reference: `ref-${Math.random().toString(36).slice(2)}`,
    signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 }],
    fields: [{ signer_reference: 'client', type: 'signature', page: 1, x: 50, y: 700, width: 200, height: 50 }],
    ...overrides,
  };
}

let a4: Uint8Array | undefined;
export async function a4Pdf(): Promise<Uint8Array> {
  a4 ??= await makePdf();
  return a4;
}

/** The create call's multipart body, built with FormData as a client library would. */
export async function createForm(
  body: Record<string, unknown> | string,
  document?: { bytes?: Uint8Array; filename?: string; type?: string } | null,
): Promise<FormData> {
  const form = new FormData();
  if (document !== null) {
    const bytes = document?.bytes ?? (await a4Pdf());
    form.append('document', new Blob([bytes], { type: document?.type ?? 'application/pdf' }), document?.filename ?? 'contract.pdf');
  }
  form.append('request', new Blob([typeof body === 'string' ? body : JSON.stringify(body)], { type: 'application/json' }), 'request.json');
  return form;
}

/** A hand-built multipart body, for shapes FormData cannot make (a JSON field with a content type, odd parts). */
export function rawMultipart(
  parts: Array<{ name: string; filename?: string; type?: string; body: string | Uint8Array }>,
  boundary = `----paraph${Math.random().toString(36).slice(2)}`,
) {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const head = [`--${boundary}`, `Content-Disposition: ${disposition}`, ...(part.type ? [`Content-Type: ${part.type}`] : []), '', ''];
    chunks.push(Buffer.from(head.join('\r\n')), Buffer.from(part.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
