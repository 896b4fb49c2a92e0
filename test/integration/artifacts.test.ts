// Completed artifacts against the real server: the signed PDF (fields stamped, one PAdES B-T seal),
// evidence.pdf and evidence.json, the artifacts endpoint, and the hash-chained audit trail.
// Spec test-environment facts 1-3, EvidenceResponse, the artifacts
// endpoint, errors 409/410; contract "410 on purged content", `--brand`; versions.md pitfalls 2-4.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, verify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import forge from 'node-forge';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { EvidenceResponse } from '../../src/contract/evidence.js';
import { latestOtpCode } from '../../src/features/mail/caught-emails.js';
import { paraph } from '../helpers/cli.js';
import { activate, advance, auditOf, createRequest, DAY, postJson, signerAction, status, waitForArtifacts, type CreateOptions } from '../helpers/flows.js';
import { expectError } from '../helpers/errors.js';
import { makePdf } from '../helpers/pdfs.js';
import { pngOf } from '../helpers/png.js';
import { embeddedToken, readTokenWithOpenssl, SIGNATURE_TIME_STAMP_TOKEN } from '../helpers/timestamps.js';
import { json, useServer, useTmpDir, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'test-artifacts');
const CONTRACT = fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'));
const TYPES = ['signed-pdf', 'evidence.pdf', 'evidence.json'] as const;
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  data: '1.2.840.113549.1.7.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
};

// ---------------------------------------------------------------------------------------------
// Helpers

/** The payload() signer on the fixture contract (two pages). */
const FROM_CONTRACT: CreateOptions = { signers: 'payload', document: { bytes: CONTRACT, filename: 'contract.pdf' } };

/** Signs through the signer's JSON API as the signing page does (email code first when asked). */
async function sign(server: TestServer, link: string, body: Json): Promise<Json> {
  const view = await json<Json>(await signerAction(link, 'view'));
  assert.equal(view.state, 'open', JSON.stringify(view));
  if (view.verification_required) {
    assert.equal((await signerAction(link, 'otp')).status, 200);
    const code = latestOtpCode(server.running.ctx, view.request.id, view.signer.reference);
    assert.ok(code, 'the catcher holds the code');
    const checked = await json<Json>(await signerAction(link, 'otp/verify', { code }));
    assert.equal(checked.verified, true);
  }
  const started = performance.now();
  const response = await signerAction(link, 'sign', body);
  const elapsed = performance.now() - started;
  assert.equal(response.status, 200, await response.clone().text());
  return { ...(await json<Json>(response)), elapsed };
}

const typed = (text: string) => ({ type: 'typed', text });

async function download(server: TestServer, id: string, type: string, key?: string | null): Promise<{ response: Response; bytes: Buffer }> {
  const response = await server.call('GET', `/v1/signature-requests/${id}/artifacts/${type}`, key === undefined ? {} : { key });
  return { response, bytes: Buffer.from(await response.clone().arrayBuffer()) };
}

async function artifacts(server: TestServer, id: string): Promise<{ signed: Buffer; evidencePdf: Buffer; evidence: Json; evidenceBytes: Buffer }> {
  const [signed, evidencePdf, evidence] = await Promise.all(TYPES.map((type) => download(server, id, type)));
  for (const d of [signed, evidencePdf, evidence]) assert.equal(d?.response.status, 200, d?.bytes.toString());
  const evidenceBytes = (evidence as { bytes: Buffer }).bytes;
  return {
    signed: (signed as { bytes: Buffer }).bytes,
    evidencePdf: (evidencePdf as { bytes: Buffer }).bytes,
    evidence: JSON.parse(evidenceBytes.toString('utf8')),
    evidenceBytes,
  };
}

/** Writes bytes under test-artifacts/ (kept after the run for a person to look at). */
function keep(name: string, bytes: Uint8Array): string {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, name);
  fs.writeFileSync(file, bytes);
  return file;
}

interface PdfSigReport {
  text: string;
  signatures: Array<{ validation: string; type: string; total: boolean }>;
}

/** poppler's verdict. It exits 0 even for a broken signature: the "Signature Validation:" lines say. */
function pdfsig(file: string): PdfSigReport {
  let text: string;
  try {
    text = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  } catch (error) {
    text = String((error as { stdout?: string }).stdout ?? '');
  }
  const signatures = text
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      validation: /Signature Validation: (.*)$/m.exec(block)?.[1]?.trim() ?? '',
      type: /Signature Type: (.*)$/m.exec(block)?.[1]?.trim() ?? '',
      total: /Total document signed/.test(block),
    }));
  return { text, signatures };
}

function assertValidSeal(name: string, signed: Buffer): void {
  const report = pdfsig(keep(name, signed));
  assert.equal(report.signatures.length, 1, report.text);
  assert.deepEqual(report.signatures[0], { validation: 'Signature is Valid.', type: 'ETSI.CAdES.detached', total: true }, report.text);
}

/** The signature dictionary's byte range and CMS. */
function signatureOf(pdf: Buffer): { byteRange: number[]; cms: Buffer; covered: Buffer } {
  const text = pdf.toString('latin1');
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  assert.ok(match, 'a /ByteRange');
  const byteRange = match.slice(1, 5).map(Number);
  const [a = 0, b = 0, c = 0, d = 0] = byteRange;
  assert.equal(a, 0);
  assert.equal(c + d, pdf.length, 'the signature covers the whole file but /Contents');
  const hex = pdf.subarray(a + b + 1, c - 1).toString('latin1');
  const der = Buffer.from(hex, 'hex');
  // The placeholder is padded with zeros after the DER: read the outer SEQUENCE's length.
  assert.equal(der[0], 0x30);
  const first = der[1] ?? 0;
  const lengthBytes = first & 0x80 ? first & 0x7f : 0;
  const contentLength = lengthBytes === 0 ? first : der.readUIntBE(2, lengthBytes);
  const length = 2 + lengthBytes + contentLength;
  assert.ok(
    der.subarray(length).every((b) => b === 0),
    'zeros after the CMS',
  );
  return { byteRange, cms: der.subarray(0, length), covered: Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]) };
}

const oidOf = (node: forge.asn1.Asn1) => forge.asn1.derToOid(node.value as string);
const kids = (node: forge.asn1.Asn1 | undefined) => (node?.value ?? []) as forge.asn1.Asn1[];
const derOf = (node: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');

/**
 * PAdES baseline B-T, checked by parsing the CMS with node-forge (independently of paraph's encoder):
 * neither pdfsig nor openssl look at signing-certificate-v2. The B-B part as before, and one unsigned
 * attribute: the signature-time-stamp token (timestamps.test.ts verifies it with openssl).
 */
function assertPadesCms(signed: Buffer, certificateDer: Buffer): void {
  const { cms, covered } = signatureOf(signed);
  const contentInfo = forge.asn1.fromDer(forge.util.createBuffer(cms.toString('binary')));
  assert.equal(oidOf(kids(contentInfo)[0] as forge.asn1.Asn1), OID.signedData);
  const signedData = kids(kids(contentInfo)[1])[0];
  const [version, digestAlgorithms, encapContentInfo, ...rest] = kids(signedData);
  assert.ok(version && digestAlgorithms && encapContentInfo);
  assert.equal(oidOf(kids(kids(digestAlgorithms)[0])[0] as forge.asn1.Asn1), OID.sha256);
  // Detached: eContentType id-data and no eContent.
  assert.equal(kids(encapContentInfo).length, 1);
  assert.equal(oidOf(kids(encapContentInfo)[0] as forge.asn1.Asn1), OID.data);
  const certificates = rest.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  assert.equal(kids(certificates).length, 1, 'the certificate is embedded');
  const embedded = derOf(kids(certificates)[0] as forge.asn1.Asn1);
  assert.deepEqual(embedded, certificateDer, "the embedded certificate is the data directory's");
  const signerInfos = rest[rest.length - 1];
  assert.equal(kids(signerInfos).length, 1, 'exactly one SignerInfo');
  const signerInfo = kids(signerInfos)[0];
  const signedAttrs = kids(signerInfo).find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 0);
  assert.ok(signedAttrs, 'signed attributes');
  const attributes = new Map(kids(signedAttrs).map((attr) => [oidOf(kids(attr)[0] as forge.asn1.Asn1), kids(kids(attr)[1])[0] as forge.asn1.Asn1]));
  assert.deepEqual([...attributes.keys()].sort(), [OID.contentType, OID.messageDigest, OID.signingCertificateV2].sort());
  assert.ok(!attributes.has(OID.signingTime), 'no CMS signing-time (PAdES: the time is in /M)');
  assert.equal(oidOf(attributes.get(OID.contentType) as forge.asn1.Asn1), OID.data);
  assert.equal(Buffer.from(attributes.get(OID.messageDigest)?.value as string, 'binary').toString('hex'), sha256(covered));
  // SigningCertificateV2 { certs: [ ESSCertIDv2 { certHash (hashAlgorithm defaults to SHA-256), issuerSerial } ] }
  const essCertIds = kids(kids(attributes.get(OID.signingCertificateV2))[0]);
  assert.equal(essCertIds.length, 1);
  const certHash = kids(essCertIds[0]).find((n) => n.type === forge.asn1.Type.OCTETSTRING);
  assert.equal(Buffer.from(certHash?.value as string, 'binary').toString('hex'), sha256(certificateDer), 'signing-certificate-v2 names the certificate');
  // The signature covers the attributes as a DER SET; check it with the certificate's key.
  const attrsAsSet = derOf(signedAttrs);
  attrsAsSet[0] = 0x31;
  const signature = Buffer.from(kids(signerInfo).at(-2)?.value as string, 'binary');
  const unsignedAttrs = kids(signerInfo).at(-1) as forge.asn1.Asn1;
  assert.equal(unsignedAttrs.tagClass, forge.asn1.Class.CONTEXT_SPECIFIC);
  assert.equal(unsignedAttrs.type, 1, 'unsigned attributes [1]');
  assert.deepEqual(
    kids(unsignedAttrs).map((attr) => oidOf(kids(attr)[0] as forge.asn1.Asn1)),
    [SIGNATURE_TIME_STAMP_TOKEN],
  );
  assert.ok(verify('sha256', attrsAsSet, createPublicKey(new X509Certificate(certificateDer).publicKey.export({ type: 'spki', format: 'pem' })), signature));
  // The signature dictionary: SubFilter ETSI.CAdES.detached, time in /M.
  const text = signed.toString('latin1');
  assert.match(text, /\/SubFilter\s*\/ETSI\.CAdES\.detached/);
  assert.match(text, /\/M\s*\(D:\d{14}/);
}

function certificateOf(server: TestServer): Buffer {
  const stored = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'signing-certificate.json'), 'utf8')) as { certificate_pem: string };
  return new X509Certificate(stored.certificate_pem).raw;
}

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormatsPlugin.default(ajv);
const validEvidence = ajv.compile(EvidenceResponse);

/** evidence.json is an EvidenceResponse whose hashes are the SHA-256 of the bytes served. */
function assertEvidence(evidence: Json, served: { original: Uint8Array; signed: Buffer; evidencePdf: Buffer }, brand = 'paraph'): void {
  assert.ok(validEvidence(evidence), JSON.stringify(validEvidence.errors));
  assert.equal(evidence.schema_version, `${brand}.evidence/1.2`);
  assert.equal(evidence.environment, 'sandbox');
  assert.deepEqual(evidence.trust, {
    certificate: 'test/self-signed',
    production_trust_service: false,
    identity_verified: false,
    otp_used: false,
    qualified_timestamp: false,
    long_term_archive: false,
  });
  assert.deepEqual(evidence.hashes, {
    original_pdf_sha256: sha256(served.original),
    signed_pdf_sha256: sha256(served.signed),
    evidence_pdf_sha256: sha256(served.evidencePdf),
  });
  // One timestamp, the token embedded in the seal as openssl reads it, checked by paraph against its authority.
  const { token, signatureDigest } = embeddedToken(served.signed);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'paraph-token-'));
  const read = readTokenWithOpenssl(token, scratch);
  fs.rmSync(scratch, { recursive: true, force: true });
  assert.equal(read.imprint, signatureDigest, "the token stamps the signature value's SHA-256");
  assert.deepEqual(evidence.timestamps, [
    {
      provider: 'paraph sandbox TSA TEST ONLY',
      hash_algorithm: 'sha256',
      document_hash: signatureDigest,
      generated_at: read.genTime.toISOString(),
      verification_status: 'verified',
    },
  ]);
  assert.deepEqual(
    evidence.events.map((e: Json) => e.id),
    evidence.events.map((_: unknown, i: number) => i + 1),
    'audit ids increase without gaps',
  );
  const text = JSON.stringify(evidence);
  assert.doesNotMatch(text, /"(ip|ip_address|user_agent|useragent)"|127\.0\.0\.1|undici|Mozilla/i, 'no IP address or user agent');
}

const SCRIBBLE = pngOf(240, 80, (x, y) => Math.abs(y - 40 - 25 * Math.sin(x / 18) * Math.cos(x / 53)) < 3 || (x > 30 && x < 210 && Math.abs(y - 70) < 1.5));
const SOLID = pngOf(40, 20, () => true);

/** A page rendered at 72 dpi in grey: one pixel per point of the displayed page. */
function renderGrey(pdf: string, page: number): { width: number; height: number; at(x: number, y: number): number } {
  const prefix = path.join(path.dirname(pdf), `${path.basename(pdf, '.pdf')}-grey`);
  execFileSync('pdftoppm', ['-r', '72', '-gray', '-cropbox', '-f', String(page), '-l', String(page), '-singlefile', pdf, prefix]);
  const pgm = fs.readFileSync(`${prefix}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 40).toString('latin1'));
  assert.ok(header, 'a binary PGM');
  const [head, w, h] = header;
  const width = Number(w);
  const offset = Buffer.byteLength(head, 'latin1');
  return { width, height: Number(h), at: (x, y) => pgm[offset + Math.round(y) * width + Math.round(x)] ?? 255 };
}

// ---------------------------------------------------------------------------------------------
// One signer, every kind of field

test('one signer: fields stamped, PAdES B-T seal valid for pdfsig, CMS attributes, evidence hashes equal the bytes served', async (t) => {
  const server = await useServer(t);
  const fields = [
    { signer_reference: 'client', type: 'signature', page: 2, x: 64, y: 560, width: 200, height: 50 },
    { signer_reference: 'client', type: 'initials', page: 1, x: 480, y: 770, width: 60, height: 30 },
    { signer_reference: 'client', type: 'text', name: 'company', page: 2, x: 64, y: 612, width: 200, height: 18 },
    { signer_reference: 'client', type: 'text', field_key: 'signer_name', page: 2, x: 300, y: 612, width: 200, height: 18 },
    { signer_reference: 'client', type: 'date', field_key: 'sign_date', page: 2, x: 64, y: 660, width: 120, height: 18 },
    {
      signer_reference: 'client',
      type: 'text',
      name: 'mention',
      value: 'Lu et approuvé — قرأت ووافقت 2024',
      read_only: true,
      page: 1,
      x: 64,
      y: 700,
      width: 320,
      height: 24,
    },
  ];
  const id = await createRequest(
    server,
    { signers: [{ reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, locale: 'fr' }], fields },
    { document: { bytes: CONTRACT, filename: 'Contrat signé.pdf' } },
  );

  // 409 before completion, in every state before it: prepared, then active.
  for (const type of TYPES) await expectError((await download(server, id, type)).response, 409, 'artifact_not_available', /once every signer has signed/);
  const { signers } = await activate(server, id);
  await expectError((await download(server, id, 'signed-pdf')).response, 409, 'artifact_not_available', /request is active/);

  const outcome = await sign(server, signers[0]?.signing_url as string, {
    fields: { company: 'Société Générale — شركة أكمي 2024', mention: 'ignored: read-only' },
    signature: typed('Ada Lovelace'),
    initials: { type: 'drawn', image: SCRIBBLE },
  });
  assert.equal(outcome.request_status, 'completed');
  const completed = await waitForArtifacts(server, id);
  assert.equal(completed.status, 'completed');

  const served = await Promise.all(TYPES.map((type) => download(server, id, type)));
  const [signedDl, evidencePdfDl, evidenceDl] = served as [(typeof served)[0], (typeof served)[0], (typeof served)[0]];
  assert.equal(signedDl.response.headers.get('content-type'), 'application/pdf');
  assert.equal(evidencePdfDl.response.headers.get('content-type'), 'application/pdf');
  assert.equal(evidenceDl.response.headers.get('content-type'), 'application/json; charset=utf-8');
  assert.equal(
    signedDl.response.headers.get('content-disposition'),
    `attachment; filename="Contrat signe-signed.pdf"; filename*=UTF-8''Contrat%20sign%C3%A9-signed.pdf`,
  );
  // The signer's copy is named the same way (one Content-Disposition wherever paraph serves a file).
  const signingUrl = new URL(signers[0]?.signing_url as string);
  const copy = await fetch(`${signingUrl.origin}${signingUrl.pathname}/api/signed-document`);
  assert.equal(copy.status, 200);
  await copy.arrayBuffer();
  assert.equal(copy.headers.get('content-disposition'), signedDl.response.headers.get('content-disposition'));
  assert.match(evidencePdfDl.response.headers.get('content-disposition') ?? '', /filename="Contrat signe-evidence\.pdf"/);
  assert.match(evidenceDl.response.headers.get('content-disposition') ?? '', /filename="Contrat signe-evidence\.json"/);
  for (const d of served) {
    assert.equal(d.response.headers.get('cache-control'), 'no-store');
    assert.equal(d.response.headers.get('content-length'), String(d.bytes.length));
    assert.equal(d.response.headers.get('etag'), `"${sha256(d.bytes)}"`);
  }
  // A conditional GET: If-None-Match naming the ETag (among others, weakly, or `*`) answers 304 without a body;
  // another ETag answers the artifact.
  const etag = signedDl.response.headers.get('etag') as string;
  const artifactPath = `/v1/signature-requests/${id}/artifacts/signed-pdf`;
  for (const match of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
    const again = await server.call('GET', artifactPath, { headers: { 'if-none-match': match } });
    assert.equal(again.status, 304, match);
    assert.equal(again.headers.get('etag'), etag);
    assert.equal((await again.arrayBuffer()).byteLength, 0);
  }
  const changed = await server.call('GET', artifactPath, { headers: { 'if-none-match': '"0000"' } });
  assert.equal(changed.status, 200);
  assert.ok(Buffer.from(await changed.arrayBuffer()).equals(signedDl.bytes));
  const signed = signedDl.bytes;
  const evidencePdf = evidencePdfDl.bytes;
  assert.ok(signed.subarray(0, 5).equals(Buffer.from('%PDF-')) && evidencePdf.subarray(0, 5).equals(Buffer.from('%PDF-')));

  // Evidence JSON: the schema, the constants, and every hash equal to the SHA-256 of what was served.
  const evidence = JSON.parse(evidenceDl.bytes.toString('utf8')) as Json;
  assertEvidence(evidence, { original: CONTRACT, signed, evidencePdf });
  assert.equal(evidence.signature_request_id, id);
  assert.match(evidence.document.evidence_ref, /^EVD-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  assert.equal(evidence.document.name, 'Contrat signé.pdf');
  assert.equal(evidence.document.status, 'completed');
  assert.equal(evidence.document.sequential_signing, false);
  assert.equal(evidence.document.completed_at, outcome.signed_at, 'completed at the last signature');
  assert.equal(evidence.retention_expires_at, completed.retention_expires_at);
  assert.deepEqual(evidence.signers, [
    {
      id: completed.signers[0]?.id,
      reference: 'client',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      signing_order: null,
      status: 'signed',
      signed_at: outcome.signed_at,
      verification: '',
      verified_at: null,
    },
  ]);
  // The events are the audit trail up to the evidence; the trail then records the artifacts' hashes.
  const trail = auditOf(server, id) as Array<Json>;
  const generated = trail.find((a) => a.type === 'artifacts_generated') as Json;
  assert.deepEqual(
    evidence.events.map((e: Json) => [e.id, e.type, e.actor_type]),
    trail.filter((a) => a.id < generated.id).map((a) => [a.id, a.type, a.actor_type]),
  );
  assert.deepEqual(
    evidence.events.map((e: Json) => e.type),
    ['request_created', 'request_activated', 'signer_viewed', 'signer_signed', 'request_completed'],
  );
  assert.equal(evidence.events[2].actor_email, 'ada@example.com');
  assert.equal(evidence.events[2].signer_id, completed.signers[0]?.id);
  assert.equal(evidence.events[4].actor_email, '');
  assert.deepEqual(JSON.parse(generated.data), {
    signed_pdf_sha256: sha256(signed),
    evidence_pdf_sha256: sha256(evidencePdf),
    evidence_json_sha256: sha256(evidenceDl.bytes),
  });

  // pdfsig: one valid ETSI.CAdES.detached signature over the whole document.
  assertValidSeal('one-signer-signed.pdf', signed);
  // The CMS: exactly one SignerInfo with content-type, message-digest and signing-certificate-v2.
  const certificate = certificateOf(server);
  assertPadesCms(signed, certificate);
  const x509 = new X509Certificate(certificate);
  assert.match(x509.subject, /TEST ONLY/);
  assert.match(x509.subject, /paraph sandbox/);
  assert.ok(x509.verify(x509.publicKey), 'self-signed');

  // OpenSSL agrees on the CMS over the signed byte ranges (-noverify: the test certificate has no trust anchor).
  const { cms, covered } = signatureOf(signed);
  const scratch = useTmpDir(t);
  fs.writeFileSync(path.join(scratch, 'cms.der'), cms);
  fs.writeFileSync(path.join(scratch, 'content.bin'), covered);
  const openssl = execFileSync(
    'openssl',
    [
      'cms',
      '-verify',
      '-binary',
      '-noverify',
      '-inform',
      'DER',
      '-in',
      path.join(scratch, 'cms.der'),
      '-content',
      path.join(scratch, 'content.bin'),
      '-out',
      '/dev/null',
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  assert.equal(openssl, '');

  // One flipped byte inside the signed range: the signature no longer verifies.
  const { byteRange } = signatureOf(signed);
  const tampered = Buffer.from(signed);
  const at = Math.floor(((byteRange[2] ?? 0) + signed.length) / 2);
  tampered[at] = (tampered[at] ?? 0) ^ 0x01;
  const broken = pdfsig(keep('one-signer-tampered.pdf', tampered));
  assert.equal(broken.signatures.length, 1, broken.text);
  assert.notEqual(broken.signatures[0]?.validation, 'Signature is Valid.', broken.text);
  assert.match(broken.signatures[0]?.validation ?? '', /Digest Mismatch|invalid/i);

  // The stamped values are in the signed PDF's text.
  const signedFile = path.join(OUT, 'one-signer-signed.pdf');
  const text = execFileSync('pdftotext', ['-layout', signedFile, '-'], { encoding: 'utf8' });
  // The signing date in ISO 8601, one format whatever the signer's language (the signing page shows it the same way).
  const signDay = String(evidence.signers[0]?.signed_at).slice(0, 10);
  for (const value of ['Société Générale', 'Ada Lovelace', signDay, 'Lu et approuvé']) {
    assert.ok(text.includes(value), `"${value}" is stamped`);
  }
  assert.doesNotMatch(text, /ignored: read-only/);
  // Every field has ink inside its box, on the page as displayed.
  for (const field of fields) {
    const page = renderGrey(signedFile, field.page);
    let dark = 0;
    for (let x = field.x; x < field.x + field.width; x += 1) for (let y = field.y; y < field.y + field.height; y += 1) if (page.at(x, y) < 160) dark += 1;
    assert.ok(dark > 10, `field ${field.type} on page ${field.page} has ink (${dark} dark pixels)`);
  }

  // The evidence report: readable English, the hashes, the chain head that precedes artifacts_generated.
  const evidenceFile = keep('one-signer-evidence.pdf', evidencePdf);
  const report = execFileSync('pdftotext', ['-layout', evidenceFile, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  for (const fact of [
    'Evidence report',
    evidence.document.evidence_ref,
    'TEST ENVIRONMENT - NO LEGAL VALUE',
    'not an advanced or qualified electronic signature',
    'Contrat signé.pdf',
    sha256(CONTRACT),
    sha256(signed),
    'Ada Lovelace <ada@example.com>',
    'Request completed',
    'Initials drawn',
    'company Société Générale',
    'Rapport de preuve',
    generated.prev_hash,
    `paraph audit verify ${id}`,
  ]) {
    assert.ok(report.includes(fact), `the report says "${fact}"`);
  }
  execFileSync('pdftoppm', ['-r', '80', '-png', evidenceFile, path.join(OUT, 'one-signer-evidence')]);
  execFileSync('pdftoppm', ['-r', '80', '-png', signedFile, path.join(OUT, 'one-signer-signed')]);
  const pngs = fs.readdirSync(OUT).filter((f) => f.startsWith('one-signer-evidence') && f.endsWith('.png'));
  assert.ok(pngs.length >= 1, 'evidence.pdf rendered to PNG');
  for (const png of pngs) assert.ok(fs.statSync(path.join(OUT, png)).size > 5000);
});

// ---------------------------------------------------------------------------------------------
// Several signers, sequential, email OTP

async function completeWithSigners(
  t: TestContext,
  server: TestServer,
  options: { signers: Json[]; sequential?: boolean },
): Promise<{ id: string; links: Array<{ id: string; reference: string; signing_url: string }> }> {
  const fields = options.signers.flatMap((s, i) => [
    { signer_reference: s.reference, type: 'signature', page: 2, x: 64 + (i % 2) * 270, y: 540 + Math.floor(i / 2) * 110, width: 200, height: 50 },
    {
      signer_reference: s.reference,
      type: 'date',
      field_key: 'sign_date',
      page: 2,
      x: 64 + (i % 2) * 270,
      y: 600 + Math.floor(i / 2) * 110,
      width: 120,
      height: 18,
    },
  ]);
  const id = await createRequest(server, { signers: options.signers, fields, ...(options.sequential ? { sequential_signing: true } : {}) }, FROM_CONTRACT);
  const { signers: links } = await activate(server, id);
  t.diagnostic(`request ${id}`);
  return { id, links };
}

test('three signers: the last signature completes; one seal over every stamp, all signers in the evidence', async (t) => {
  const server = await useServer(t);
  const people = [
    { reference: 'buyer', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
    { reference: 'seller', name: 'فاطمة الزهراء', email: 'fatima@example.com', order: 2, locale: 'ar' },
    { reference: 'witness', name: 'Élodie Dupré', email: 'elodie@example.com', order: 3, locale: 'fr' },
  ];
  const { id, links } = await completeWithSigners(t, server, { signers: people });
  // In any order; the request completes with the third.
  for (const reference of ['witness', 'buyer', 'seller']) {
    const link = links.find((l) => l.reference === reference) as { signing_url: string };
    const person = people.find((p) => p.reference === reference) as Json;
    const outcome = await sign(server, link.signing_url, { signature: typed(person.name) });
    assert.equal(outcome.request_status, reference === 'seller' ? 'completed' : 'active');
    if (reference !== 'seller') await expectError((await download(server, id, 'evidence.json')).response, 409, 'artifact_not_available');
  }
  await waitForArtifacts(server, id);
  const { signed, evidencePdf, evidence } = await artifacts(server, id);
  assertValidSeal('three-signers-signed.pdf', signed);
  assertPadesCms(signed, certificateOf(server));
  assertEvidence(evidence, { original: CONTRACT, signed, evidencePdf });
  assert.deepEqual(
    evidence.signers.map((s: Json) => [s.reference, s.name, s.signing_order, s.status]),
    people.map((p) => [p.reference, p.name, null, 'signed']),
  );
  assert.equal(
    evidence.document.completed_at,
    evidence.signers
      .map((s: Json) => s.signed_at)
      .sort()
      .at(-1),
  );
  assert.equal(evidence.events.filter((e: Json) => e.type === 'signer_signed').length, 3);
  const file = keep('three-signers-evidence.pdf', evidencePdf);
  execFileSync('pdftoppm', ['-r', '80', '-png', file, path.join(OUT, 'three-signers-evidence')]);
  execFileSync('pdftoppm', ['-r', '80', '-png', '-f', '2', '-l', '2', path.join(OUT, 'three-signers-signed.pdf'), path.join(OUT, 'three-signers-signed')]);
  const report = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  assert.ok(report.includes('Élodie Dupré <elodie@example.com>'));
});

test('sequential signing: signing_order in the evidence, a valid seal; --brand names the schema version', async (t) => {
  const server = await useServer(t, { brand: 'acme' });
  const people = [
    { reference: 'first', name: 'Ada Lovelace', email: 'ada@example.com', order: 1 },
    { reference: 'second', name: 'Grace Hopper', email: 'grace@example.com', order: 2 },
  ];
  const { id, links } = await completeWithSigners(t, server, { signers: people, sequential: true });
  const second = links.find((l) => l.reference === 'second') as { signing_url: string };
  const blocked = await signerAction(second.signing_url, 'sign', { signature: typed('Grace Hopper') });
  assert.equal(blocked.status, 409);
  await sign(server, (links.find((l) => l.reference === 'first') as { signing_url: string }).signing_url, { signature: typed('Ada Lovelace') });
  await sign(server, second.signing_url, { signature: typed('Grace Hopper') });
  await waitForArtifacts(server, id);
  const { signed, evidencePdf, evidence } = await artifacts(server, id);
  assertValidSeal('sequential-signed.pdf', signed);
  assertPadesCms(signed, certificateOf(server));
  assertEvidence(evidence, { original: CONTRACT, signed, evidencePdf }, 'acme');
  assert.equal(evidence.document.sequential_signing, true);
  assert.deepEqual(
    evidence.signers.map((s: Json) => [s.reference, s.signing_order]),
    [
      ['first', 1],
      ['second', 2],
    ],
  );
});

test('email OTP signer: verification and verified_at in the evidence, otp events in the trail, a valid seal', async (t) => {
  const server = await useServer(t);
  const { id, links } = await completeWithSigners(t, server, {
    signers: [
      { reference: 'client', name: 'Ada Lovelace', email: 'ada@example.com', order: 1, verification: 'email_otp' },
      { reference: 'provider', name: 'Grace Hopper', email: 'grace@example.com', order: 2 },
    ],
  });
  for (const link of links) await sign(server, link.signing_url, { signature: typed(link.reference) });
  await waitForArtifacts(server, id);
  const { signed, evidencePdf, evidence } = await artifacts(server, id);
  assertValidSeal('otp-signed.pdf', signed);
  assertPadesCms(signed, certificateOf(server));
  assertEvidence(evidence, { original: CONTRACT, signed, evidencePdf });
  const [client, provider] = evidence.signers as Json[];
  assert.equal(client?.verification, 'email_otp');
  assert.match(client?.verified_at ?? '', /^\d{4}-\d{2}-\d{2}T/);
  assert.ok((client?.verified_at ?? '') <= (client?.signed_at ?? ''));
  assert.equal(provider?.verification, '');
  assert.equal(provider?.verified_at, null);
  assert.equal(evidence.trust.otp_used, false, 'a constant, as the description fixes it');
  const types = evidence.events.map((e: Json) => e.type);
  assert.ok(types.indexOf('otp_sent') < types.indexOf('otp_verified'));
  const report = execFileSync('pdftotext', [keep('otp-evidence.pdf', evidencePdf), '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  assert.match(report, /Verification email code, entered \d{4}-\d{2}-\d{2}/);
});

// ---------------------------------------------------------------------------------------------
// Geometry: the displayed page, after /Rotate and within the CropBox

test('stamps land where the fields are on the displayed page, for /Rotate 0, 90, 180 and 270 and a CropBox', async (t) => {
  const server = await useServer(t);
  const specs = [
    { width: 595.28, height: 841.89 },
    { width: 595.28, height: 841.89, rotate: 90 },
    { width: 595.28, height: 841.89, rotate: 180 },
    { width: 595.28, height: 841.89, rotate: 270 },
    { width: 612, height: 792, rotate: 90, cropBox: { x: 36, y: 50, width: 500, height: 700 } },
  ];
  const pdf = await makePdf(specs);
  // Displayed sizes: rotated pages swap width and height; the last one shows its CropBox.
  const displayed = specs.map((s, i) =>
    i === 4 ? { width: 700, height: 500 } : s.rotate === 90 || s.rotate === 270 ? { width: s.height, height: s.width } : s,
  );
  const fields = displayed.flatMap((page, i) => [
    { signer_reference: 'client', type: 'signature', page: i + 1, x: 40, y: 60, width: 120, height: 60 },
    { signer_reference: 'client', type: 'signature', page: i + 1, x: page.width - 200, y: page.height - 90, width: 160, height: 80 },
  ]);
  const id = await createRequest(server, { fields }, { signers: 'payload', document: { bytes: pdf, filename: 'rotated.pdf' } });
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: { type: 'drawn', image: SOLID } });
  await waitForArtifacts(server, id);
  const { signed } = await artifacts(server, id);
  const file = keep('rotated-signed.pdf', signed);
  assertValidSeal('rotated-signed.pdf', signed);
  displayed.forEach((size, i) => {
    const page = renderGrey(file, i + 1);
    assert.ok(Math.abs(page.width - size.width) <= 1, `page ${i + 1} is ${page.width} px wide as displayed, not ${size.width}`);
    assert.ok(Math.abs(page.height - size.height) <= 1, `page ${i + 1} is ${page.height} px high as displayed, not ${size.height}`);
    for (const field of fields.filter((f) => f.page === i + 1)) {
      // The solid mark fills the box (2:1, like the image) but a 5% margin; outside the box stays white.
      assert.ok(page.at(field.x + field.width / 2, field.y + field.height / 2) < 100, `page ${i + 1}: ink at the centre of (${field.x}, ${field.y})`);
      assert.ok(page.at(field.x + field.width * 0.15, field.y + field.height * 0.3) < 100, `page ${i + 1}: ink in the box's top-left quarter`);
      assert.ok(page.at(field.x - 8, field.y + field.height / 2) > 200, `page ${i + 1}: nothing left of the box`);
      assert.ok(page.at(field.x + field.width / 2, field.y + field.height + 8) > 200, `page ${i + 1}: nothing below the box`);
    }
  });
  execFileSync('pdftoppm', ['-r', '40', '-png', file, path.join(OUT, 'rotated-signed')]);
});

test('a drawn mark that is not a readable PNG (the signing API checks only its signature and header) still gets sealed artifacts', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  // The PNG signature and an image header of 10 x 10 pixels, then bytes that are no image.
  const header = Buffer.alloc(8);
  header.writeUInt32BE(10, 0);
  header.writeUInt32BE(10, 4);
  const damaged = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), header, Buffer.alloc(64, 7)]);
  await sign(server, signers[0]?.signing_url as string, { signature: { type: 'drawn', image: `data:image/png;base64,${damaged.toString('base64')}` } });
  await waitForArtifacts(server, id);
  const { signed } = await artifacts(server, id);
  assertValidSeal('damaged-mark-signed.pdf', signed);
  const text = execFileSync('pdftotext', [path.join(OUT, 'damaged-mark-signed.pdf'), '-'], { encoding: 'utf8' });
  assert.match(text, /signature image unreadable/);
});

test('values and a filename at their limits, with no space to break them, are stamped and printed: the artifacts are made', async (t) => {
  const server = await useServer(t);
  // 99 text values of 500 characters in narrow boxes (with the signature, the 100 fields a request may have), and
  // a 255-character filename: each unbroken word cut into many lines. (Cutting them took about a second a value,
  // so the worker's 120 s budget ran out on every attempt and the artifacts were never made.)
  const fields = Array.from({ length: 99 }, (_, i) => ({
    signer_reference: 'client',
    type: 'text',
    name: `value_${i}`,
    page: 1,
    x: 30 + (i % 7) * 78,
    y: 40 + Math.floor(i / 7) * 52,
    width: 50,
    height: 20,
    value: 'W'.repeat(500),
    read_only: true,
  }));
  const filename = `${'N'.repeat(251)}.pdf`;
  const id = await createRequest(server, { fields }, { signers: 'payload', document: { bytes: CONTRACT, filename } });
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: { type: 'typed', text: 'Ada Lovelace' } });
  await waitForArtifacts(server, id);
  const { signed, evidencePdf } = await artifacts(server, id);
  assertValidSeal('long-values-signed.pdf', signed);
  fs.writeFileSync(path.join(OUT, 'long-values-evidence.pdf'), evidencePdf);
  const text = execFileSync('pdftotext', [path.join(OUT, 'long-values-evidence.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
  assert.ok(text.includes('N'.repeat(251)), 'the whole filename is printed in the evidence, over as many lines as it takes');
});

// ---------------------------------------------------------------------------------------------
// The endpoint's answers

test('artifacts endpoint: 401 without a key, 404 for a foreign or unknown request or type, 409 for closed requests', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
  await waitForArtifacts(server, id);

  await expectError((await download(server, id, 'signed-pdf', null)).response, 401, 'unauthorized');
  const other = server.newKey();
  await expectError((await download(server, id, 'signed-pdf', other.apiKey)).response, 404, 'not_found');
  await expectError((await download(server, '6b0d4a32-54bb-4a8b-a7a4-2f5a7b3b0c1e', 'signed-pdf')).response, 404, 'not_found');
  await expectError((await download(server, id, 'signed.pdf')).response, 404, 'not_found');
  await expectError((await download(server, 'not-a-uuid', 'evidence.json')).response, 404, 'not_found');
  const post = await server.call('POST', `/v1/signature-requests/${id}/artifacts/signed-pdf`);
  assert.equal(post.status, 405);

  // Declined and cancelled requests never get artifacts: 409, with the reason.
  const declined = await createRequest(server, {}, FROM_CONTRACT);
  const declinedLinks = await activate(server, declined);
  await signerAction(declinedLinks.signers[0]?.signing_url as string, 'view');
  assert.equal((await signerAction(declinedLinks.signers[0]?.signing_url as string, 'decline', { reason: 'wrong amount' })).status, 200);
  await expectError((await download(server, declined, 'evidence.pdf')).response, 409, 'artifact_not_available', /declined: it has no artifacts/);
  const cancelled = await createRequest(server, {}, FROM_CONTRACT);
  assert.equal((await postJson(server, `/v1/signature-requests/${cancelled}/cancel`, {})).status, 200);
  await expectError((await download(server, cancelled, 'evidence.json')).response, 409, 'artifact_not_available', /cancelled/);
  assert.deepEqual((await status(server, declined)).artifacts, { signed_pdf: false, evidence_pdf: false, evidence_json: false });
});

test('410 after purge: paraph purge, the sandbox purge and the retention deadline on the clock; blobs deleted', async (t) => {
  const server = await useServer(t);
  const completeOne = async () => {
    const id = await createRequest(server, {}, FROM_CONTRACT);
    const { signers } = await activate(server, id);
    await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
    await waitForArtifacts(server, id);
    return id;
  };
  const blobsOf = (id: string) =>
    server.running.ctx.db.all(server.running.ctx.db.q.selectFrom('artifacts').selectAll().where('request_id', '=', id)).map((a) => a.blob_id);

  // `paraph purge` from another process on the same data directory.
  const first = await completeOne();
  const files = blobsOf(first).map((b) => path.join(server.dataDir, 'blobs', `${b}.blob`));
  assert.ok(files.every((f) => fs.existsSync(f)));
  const purged = await paraph(['purge', first, '--data-dir', server.dataDir]);
  assert.equal(purged.code, 0, purged.stderr);
  for (const type of TYPES) await expectError((await download(server, first, type)).response, 410, 'artifact_not_available', /purged/);
  assert.ok(
    files.every((f) => !fs.existsSync(f)),
    'the encrypted artifacts are deleted',
  );
  const after = await status(server, first);
  assert.equal(after.status, 'purged');
  assert.deepEqual(after.artifacts, { signed_pdf: false, evidence_pdf: false, evidence_json: false });
  // The purge appended to the audit trail, which still verifies.
  const verified = await paraph(['audit', 'verify', first, '--data-dir', server.dataDir, '--json']);
  assert.equal(verified.code, 0, verified.stderr);
  assert.equal(JSON.parse(verified.stdout).intact, true);

  // POST /_sandbox/.../purge, then the retention deadline passing on the sandbox clock.
  const second = await completeOne();
  assert.equal((await postJson(server, `/_sandbox/signature-requests/${second}/purge`)).status, 200);
  await expectError((await download(server, second, 'evidence.json')).response, 410, 'artifact_not_available');
  const third = await completeOne();
  const unfinished = await createRequest(server, {}, FROM_CONTRACT);
  await advance(server, 11 * DAY);
  await expectError((await download(server, third, 'signed-pdf')).response, 410, 'artifact_not_available', /retention/);
  await expectError((await download(server, unfinished, 'signed-pdf')).response, 410, 'artifact_not_available');
  assert.ok(blobsOf(third).every((b) => b === null));
});

test('a blob that fails authentication answers 500 in the error envelope, with no partial bytes', async (t) => {
  const server = await useServer(t, {}, {}, { expectedErrors: /^request failed: Unsupported state or unable to authenticate data/ });
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
  await waitForArtifacts(server, id);
  const { db } = server.running.ctx;
  const row = db.first(db.q.selectFrom('artifacts').selectAll().where('request_id', '=', id).where('type', '=', 'signed-pdf'));
  const file = path.join(server.dataDir, 'blobs', `${row?.blob_id}.blob`);
  const sealed = fs.readFileSync(file);
  // One bit of ciphertext in the middle: AES-GCM refuses it.
  const damaged = Buffer.from(sealed);
  const at = Math.floor(damaged.length / 2);
  damaged[at] = (damaged[at] ?? 0) ^ 0x40;
  fs.writeFileSync(file, damaged);
  const { response, bytes } = await download(server, id, 'signed-pdf');
  assert.equal(response.status, 500);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(response.headers.get('content-disposition'), null);
  const body = JSON.parse(bytes.toString('utf8')) as Json;
  assert.equal(body.error.code, 'internal_error');
  assert.ok(!bytes.includes(Buffer.from('%PDF')), 'no PDF bytes');
  // The other artifacts are untouched.
  assert.equal((await download(server, id, 'evidence.pdf')).response.status, 200);
  fs.writeFileSync(file, sealed);
  assert.equal((await download(server, id, 'signed-pdf')).response.status, 200);
});

test('completion never waits for or fails on sealing: a failed generation is retried until the artifacts exist', async (t) => {
  const server = await useServer(t, {}, {}, { expectedErrors: /^artifact generation failed/ });
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  const { db } = server.running.ctx;
  const request = db.first(db.q.selectFrom('signature_requests').select('document_id').where('id', '=', id));
  const document = db.first(
    db.q
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', request?.document_id as string),
  );
  const file = path.join(server.dataDir, 'blobs', `${document?.blob_id}.blob`);
  const sealed = fs.readFileSync(file);
  // The original cannot be read for now: generation fails.
  fs.writeFileSync(file, Buffer.concat([sealed.subarray(0, 20), Buffer.alloc(sealed.length - 20)]));
  const outcome = await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
  assert.equal(outcome.request_status, 'completed');
  assert.ok(outcome.elapsed < 3_000, `the signer's answer came in ${outcome.elapsed} ms`);
  // A clock advance runs the generation still missing and waits for it (or for the one under way): it fails.
  await advance(server, 1000);
  const pending = await status(server, id);
  assert.equal(pending.status, 'completed');
  assert.deepEqual(pending.artifacts, { signed_pdf: false, evidence_pdf: false, evidence_json: false });
  await expectError((await download(server, id, 'signed-pdf')).response, 409, 'artifact_not_available', /being generated/);
  // Readable again: the next attempt (5 s after the failure) produces them.
  fs.writeFileSync(file, sealed);
  await waitForArtifacts(server, id, 30_000);
  const { signed } = await artifacts(server, id);
  assertValidSeal('retried-signed.pdf', signed);
  assert.equal(auditOf(server, id).filter((a) => a.type === 'artifacts_generated').length, 1);
});

// ---------------------------------------------------------------------------------------------
// The audit trail

test('audit trail: triggers refuse UPDATE and DELETE; paraph audit verify checks the chain and names the first tampered row', async (t) => {
  const server = await useServer(t);
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
  await waitForArtifacts(server, id);
  const trail = auditOf(server, id) as Json[];
  assert.ok(trail.length >= 6);
  trail.forEach((row, i) => {
    assert.equal(row.prev_hash, i === 0 ? '0'.repeat(64) : trail[i - 1]?.hash);
    assert.match(row.hash, /^[0-9a-f]{64}$/);
  });

  const intact = await paraph(['audit', 'verify', id, '--data-dir', server.dataDir]);
  assert.equal(intact.code, 0, intact.stderr);
  assert.match(intact.stdout, new RegExp(`${trail.length} events, hash chain intact`));
  assert.ok(intact.stdout.includes(String(trail.at(-1)?.hash)));
  const unknown = await paraph(['audit', 'verify', '6b0d4a32-54bb-4a8b-a7a4-2f5a7b3b0c1e', '--data-dir', server.dataDir]);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /does not exist/);

  const raw = new BetterSqlite3(path.join(server.dataDir, 'paraph.db'));
  t.after(() => raw.close());
  raw.pragma('busy_timeout = 10000');
  assert.throws(() => raw.prepare('update audit_events set actor_email = ? where request_id = ? and id = 3').run('mallory@example.com', id), /append-only/);
  assert.throws(() => raw.prepare('delete from audit_events where request_id = ?').run(id), /append-only/);
  assert.throws(
    () =>
      raw
        .prepare(
          "insert into audit_events (request_id, id, type, actor_type, actor_id, actor_email, signer_id, data, created_at, prev_hash, hash) values (?, 99, 'forged', 'system', null, '', null, '{}', 0, ?, ?)",
        )
        .run(id, '0'.repeat(64), 'f'.repeat(64)),
    /hash chain/,
  );

  // Someone with the database file drops the trigger and rewrites who viewed the document.
  raw.exec('drop trigger audit_events_no_update');
  raw.prepare('update audit_events set actor_email = ? where request_id = ? and id = 3').run('mallory@example.com', id);
  const tampered = await paraph(['audit', 'verify', id, '--data-dir', server.dataDir]);
  assert.equal(tampered.code, 1);
  assert.match(tampered.stderr, /broken at event #3: event #3 does not match its hash/);
  const asJson = await paraph(['audit', 'verify', id, '--data-dir', server.dataDir, '--json']);
  assert.equal(asJson.code, 1);
  assert.deepEqual(JSON.parse(asJson.stdout).broken, { id: 3, reason: 'content', message: 'event #3 does not match its hash: its content was changed' });

  // Recomputing that row's hash does not help: the next row no longer links to it.
  const row3 = raw.prepare('select * from audit_events where request_id = ? and id = 3').get(id) as Json;
  const { auditRowHash } = await import('../../src/domain/audit-chain.js');
  raw.prepare('update audit_events set hash = ? where request_id = ? and id = 3').run(auditRowHash(row3 as never, row3.prev_hash), id);
  const relinked = await paraph(['audit', 'verify', id, '--data-dir', server.dataDir]);
  assert.equal(relinked.code, 1);
  assert.match(relinked.stderr, /broken at event #4: event #4 does not link to the hash of event #3/);

  // A removed row leaves a gap.
  const other = await createRequest(server, {}, FROM_CONTRACT);
  await activate(server, other);
  raw.exec('drop trigger audit_events_no_delete');
  raw.prepare('delete from audit_events where request_id = ? and id = 1').run(other);
  const gap = await paraph(['audit', 'verify', other, '--data-dir', server.dataDir]);
  assert.equal(gap.code, 1);
  assert.match(gap.stderr, /broken at event #2: event #2 follows #0: #1 is missing/);
});

test('one signing certificate per data directory: made in the background after the first start, key sealed', async (t) => {
  const dataDir = useTmpDir(t);
  const server = await useServer(t, { dataDir }, {}, { warmUp: true });
  // The certificate appears in the background right after the first start, key sealed.
  const file = path.join(dataDir, 'signing-certificate.json');
  for (let i = 0; i < 300 && !fs.existsSync(file); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  assert.equal(stored.format, 'paraph.signing-certificate/1');
  assert.doesNotMatch(JSON.stringify(stored), /PRIVATE KEY/);
  const certificate = new X509Certificate(stored.certificate_pem);
  assert.match(certificate.subject, /CN=paraph sandbox TEST ONLY/);
  assert.equal(certificate.publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  // A CLI process on the same directory uses the same one.
  const id = await createRequest(server, {}, FROM_CONTRACT);
  const { signers } = await activate(server, id);
  await sign(server, signers[0]?.signing_url as string, { signature: typed('Ada') });
  await waitForArtifacts(server, id);
  assertPadesCms((await artifacts(server, id)).signed, certificate.raw);
  assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).certificate_pem, stored.certificate_pem);
  const verified = await paraph(['audit', 'verify', id, '--data-dir', dataDir, '--json']);
  assert.equal(JSON.parse(verified.stdout).intact, true);
});
