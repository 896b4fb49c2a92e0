// Signature timestamps: the RFC 3161 encoding both ways, the built-in test authority over
// HTTP (checked with `openssl ts` and curl, as docs/timestamps.md shows), PAdES B-T seals (pdfsig,
// `openssl ts -verify` on the embedded token, evidence `timestamps[]` against it), a tampered token,
// `--timestamps off`, and an external authority through `--tsa-url`.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { resolveConfig, ConfigError } from '../../src/platform/config.js';
import { createSealer } from '../../src/platform/crypto/sealed.js';
import { loadOrCreateTsaIdentity } from '../../src/pdf/certificate.js';
import { describeTimestamp } from '../../src/pdf/tsa-seal.js';
import {
  decodeTimestampReply,
  decodeTimestampRequest,
  encodeTimestampReply,
  encodeTimestampRequest,
  issueTimestampToken,
  TimestampRequestError,
  TSA_POLICY,
  type TimestampRequest,
} from '../../src/pdf/tsa-protocol.js';
import { readTimestampToken, verifyTimestampToken } from '../../src/pdf/tsa-token.js';
import { activeRequest, signerAction, waitForArtifacts } from '../helpers/flows.js';
import { json, useServer, useTmpDir, type TestServer } from '../helpers/server.js';
import { embeddedToken, opensslVerifyToken, readTokenWithOpenssl, signerInfoOf, cmsOf, parseTokenText } from '../helpers/timestamps.js';

type Json = Record<string, any>;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CONTRACT = fs.readFileSync(path.join(ROOT, 'fixtures/contract.pdf'));
const TSA_CN = 'paraph sandbox TSA TEST ONLY';
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

function run(command: string, args: string[], options: { cwd?: string } = {}): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], ...options });
}

async function tsaFixture(t: TestContext) {
  const dir = useTmpDir(t);
  const sealer = createSealer(randomBytes(32), 'secrets');
  const identity = await loadOrCreateTsaIdentity(dir, sealer, new Date());
  const { createPrivateKey } = await import('node:crypto');
  const key = { certificateDer: identity.certificateDer, privateKey: createPrivateKey({ key: identity.privateKeyDer, format: 'der', type: 'pkcs8' }) };
  return { dir, sealer, identity, key };
}

/** Completes a one-signer request and answers its three artifacts once made. */
async function completed(server: TestServer, reference: string): Promise<{ id: string; signed: Buffer; evidencePdf: Buffer; evidence: Json }> {
  const { id, signers } = await activeRequest(server, { client_reference: reference }, { signers: 'payload', document: { bytes: CONTRACT } });
  const signed = await signerAction(signers[0]?.signing_url as string, 'sign', { signature: { type: 'typed', text: 'Ada Lovelace' } });
  assert.equal(signed.status, 200, await signed.clone().text());
  await waitForArtifacts(server, id);
  const get = async (type: string) => {
    const response = await server.call('GET', `/v1/signature-requests/${id}/artifacts/${type}`);
    assert.equal(response.status, 200);
    return Buffer.from(await response.arrayBuffer());
  };
  return {
    id,
    signed: await get('signed-pdf'),
    evidencePdf: await get('evidence.pdf'),
    evidence: JSON.parse((await get('evidence.json')).toString('utf8')) as Json,
  };
}

function pdfsigReport(file: string): string {
  try {
    return run('pdfsig', [file]);
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? '');
  }
}

function logSink(): { lines: Json[]; stream: Writable } {
  const lines: Json[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Json);
      done();
    },
  });
  return { lines, stream };
}

/** The ```sh blocks of a docs page. */
function shellBlocks(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] as string);
}

// ---------------------------------------------------------------------------------------------

test("DER round trips: requests and replies, ours and openssl's, read the same both ways", async (t) => {
  const { dir, key, identity } = await tsaFixture(t);
  const imprint = sha256('what is stamped');
  const requests: TimestampRequest[] = [
    { hashAlgorithm: 'sha256', messageImprint: imprint, policy: null, nonce: null, certReq: false },
    { hashAlgorithm: 'sha256', messageImprint: imprint, policy: TSA_POLICY, nonce: Buffer.from('80aa01', 'hex'), certReq: true },
    {
      hashAlgorithm: 'sha512',
      messageImprint: createHash('sha512').update('x').digest(),
      policy: null,
      nonce: Buffer.from('0102030405060708', 'hex'),
      certReq: true,
    },
  ];
  for (const request of requests) {
    const der = encodeTimestampRequest(request);
    assert.deepEqual(decodeTimestampRequest(der), request);
    // openssl reads ours: same hash, nonce and certReq.
    fs.writeFileSync(path.join(dir, 'ours.tsq'), der);
    const text = run('openssl', ['ts', '-query', '-in', path.join(dir, 'ours.tsq'), '-text']);
    assert.match(text, new RegExp(`Hash Algorithm: ${request.hashAlgorithm}`));
    assert.match(text, new RegExp(`Certificate required: ${request.certReq ? 'yes' : 'no'}`));
    assert.match(text, request.nonce ? new RegExp(`Nonce: 0x${request.nonce.toString('hex').toUpperCase()}`) : /Nonce: unspecified/);
  }
  // openssl's request, read by paraph.
  fs.writeFileSync(path.join(dir, 'data.txt'), 'hello');
  const query = Buffer.from(execFileSync('openssl', ['ts', '-query', '-data', path.join(dir, 'data.txt'), '-sha384', '-cert']));
  const decoded = decodeTimestampRequest(query);
  assert.equal(decoded.hashAlgorithm, 'sha384');
  assert.deepEqual(decoded.messageImprint, createHash('sha384').update('hello').digest());
  assert.equal(decoded.certReq, true);
  assert.ok(decoded.nonce && decoded.nonce.length > 0, 'openssl sends a nonce');

  // A reply: encoded, decoded to the same token, whose fields read back (and openssl agrees on them).
  const genTime = new Date('2031-02-03T04:05:06.789Z');
  const serial = Buffer.from('0123456789abcdef', 'hex');
  const token = issueTimestampToken(decoded, key, genTime, serial);
  const reply = encodeTimestampReply(token);
  const back = decodeTimestampReply(reply);
  assert.equal(back.status, 0);
  assert.deepEqual(back.token, token);
  const info = readTimestampToken(token);
  assert.equal(info.policy, TSA_POLICY);
  assert.equal(info.hashAlgorithm, 'sha384');
  assert.deepEqual(info.messageImprint, decoded.messageImprint);
  assert.deepEqual(info.nonce, decoded.nonce, 'the nonce is echoed');
  assert.equal(info.genTime.toISOString(), genTime.toISOString());
  assert.equal(info.serialNumber, '0123456789ABCDEF');
  assert.deepEqual(info.certificates, [identity.certificateDer], 'certReq: the certificate is in the token');
  fs.writeFileSync(path.join(dir, 'reply.tsr'), reply);
  const read = parseTokenText(run('openssl', ['ts', '-reply', '-in', path.join(dir, 'reply.tsr'), '-text']));
  assert.equal(read.genTime.toISOString(), genTime.toISOString());
  assert.equal(read.policy, TSA_POLICY);
  assert.equal(read.serial, '0123456789ABCDEF');
  assert.equal(read.nonce, decoded.nonce?.toString('hex').toUpperCase());
  assert.equal(read.imprint, decoded.messageImprint.toString('hex'));
  assert.match(read.text, /Accuracy: 0x01 seconds/);
  // Without certReq the token carries no certificate.
  assert.deepEqual(readTimestampToken(issueTimestampToken({ ...decoded, certReq: false }, key, genTime)).certificates, []);
  // A whole second has no fraction in DER.
  assert.equal(readTimestampToken(issueTimestampToken(decoded, key, new Date('2031-02-03T04:05:06.000Z'))).genTime.getMilliseconds(), 0);
  assert.ok(issueTimestampToken(decoded, key, new Date('2031-02-03T04:05:06.000Z')).includes(Buffer.from('20310203040506Z')));
  // openssl verifies the token against the request it answers.
  fs.writeFileSync(path.join(dir, 'query.tsq'), query);
  fs.writeFileSync(path.join(dir, 'tsa.pem'), new X509Certificate(identity.certificateDer).toString());
  assert.match(
    run('openssl', ['ts', '-verify', '-queryfile', path.join(dir, 'query.tsq'), '-in', path.join(dir, 'reply.tsr'), '-CAfile', path.join(dir, 'tsa.pem')]),
    /Verification: OK/,
  );
});

test('requests the authority refuses say why', () => {
  const imprint = sha256('x');
  const good: TimestampRequest = { hashAlgorithm: 'sha256', messageImprint: imprint, policy: null, nonce: null, certReq: false };
  const der = encodeTimestampRequest(good);
  const cases: Array<[Buffer, RegExp]> = [
    [Buffer.from('not der at all'), /not an RFC 3161 time-stamp request/],
    [Buffer.alloc(0), /not DER/],
    [Buffer.concat([der, Buffer.from([0])]), /trailing bytes/],
    [Buffer.from(der.toString('hex').replace('020101', '020102'), 'hex'), /version must be 1/],
    // SHA-224's OID (2.16.840.1.101.3.4.2.4) in place of SHA-256's.
    [Buffer.from(der.toString('hex').replace('608648016503040201', '608648016503040204'), 'hex'), /unsupported hash algorithm 2\.16\.840\.1\.101\.3\.4\.2\.4/],
    [encodeTimestampRequest({ ...good, messageImprint: imprint.subarray(0, 20) }), /a sha256 hash has 32 bytes, not 20/],
    [encodeTimestampRequest({ ...good, policy: '1.2.3.4' }), /policy 2\.25\.\d+ only, not 1\.2\.3\.4/],
    [Buffer.concat([Buffer.from([0x30, der.length - 2 + 4]), der.subarray(2), Buffer.from([0xa0, 0x02, 0x30, 0x00])]), /no request extensions/],
  ];
  for (const [input, message] of cases) {
    assert.throws(
      () => decodeTimestampRequest(input),
      (error: Error) => error instanceof TimestampRequestError && message.test(error.message),
      `${input.toString('hex')} → ${message}`,
    );
  }
});

test('checking a token: verified against its authority, unverified without one, failed when tampered with or from another authority', async (t) => {
  const { key, identity, dir, sealer } = await tsaFixture(t);
  fs.mkdirSync(path.join(dir, 'other'));
  const other = await loadOrCreateTsaIdentity(path.join(dir, 'other'), sealer, new Date());
  // Made once per data directory: a second load is the same certificate.
  assert.deepEqual((await loadOrCreateTsaIdentity(dir, sealer, new Date())).certificateDer, identity.certificateDer);
  const imprint = sha256('signature value');
  const request: TimestampRequest = { hashAlgorithm: 'sha256', messageImprint: imprint, policy: null, nonce: randomBytes(8), certReq: true };
  const token = issueTimestampToken(request, key, new Date());
  const expected = { hashAlgorithm: 'sha256' as const, imprint };
  assert.deepEqual(verifyTimestampToken(token, expected, identity.certificateDer).status, 'verified');
  assert.equal(verifyTimestampToken(token, expected, null).status, 'unverified', 'no trust anchor');
  assert.equal(verifyTimestampToken(token, expected, other.certificateDer).status, 'failed', 'another authority');
  assert.equal(verifyTimestampToken(token, { hashAlgorithm: 'sha256', imprint: sha256('other') }, identity.certificateDer).status, 'failed', 'other data');
  // The certificate's subject and its critical extended key usage, as openssl shows them.
  fs.writeFileSync(path.join(dir, 'tsa.pem'), new X509Certificate(identity.certificateDer).toString());
  const text = run('openssl', ['x509', '-in', path.join(dir, 'tsa.pem'), '-noout', '-text']);
  assert.match(text, /X509v3 Extended Key Usage: critical\n\s+Time Stamping\n/);
  assert.match(text, /Subject: CN = paraph sandbox TSA TEST ONLY, O = "paraph sandbox - TEST ONLY, no legal value"/);

  // Tampering: the signature value's last byte, a byte of the genTime, a byte of the certificate.
  const flip = (bytes: Buffer, at: number) => {
    const copy = Buffer.from(bytes);
    copy[at] = (copy[at] ?? 0) ^ 0x01;
    return copy;
  };
  const genTimeAt = token.indexOf(Buffer.from([0x18])) + 5;
  // In the certificate's own signature: issuer and serial still name the signer, the ESS hash no longer matches.
  const certAt = token.indexOf(identity.certificateDer) + identity.certificateDer.length - 10;
  for (const [label, tampered] of [
    ['signature', flip(token, token.length - 1)],
    ['genTime', flip(token, genTimeAt)],
    ['certificate', flip(token, certAt)],
  ] as const) {
    const described = describeTimestamp(tampered, imprint, identity.certificateDer);
    assert.equal(described.verificationStatus, 'failed', `${label}: ${described.reason}`);
    assert.equal(described.provider, TSA_CN);
    // openssl agrees that it does not verify.
    assert.throws(
      () => opensslVerifyToken(tampered, imprint.toString('hex'), new X509Certificate(identity.certificateDer).toString(), dir),
      `${label}: openssl refuses it too`,
    );
  }
  const good = describeTimestamp(token, imprint, identity.certificateDer);
  assert.deepEqual(
    { ...good, reason: null },
    {
      provider: TSA_CN,
      hashAlgorithm: 'sha256',
      documentHash: imprint.toString('hex'),
      generatedAt: readTimestampToken(token).genTime.toISOString(),
      verificationStatus: 'verified',
      reason: null,
    },
  );
  assert.match(opensslVerifyToken(token, imprint.toString('hex'), new X509Certificate(identity.certificateDer).toString(), dir), /Verification: OK/);
  assert.equal(describeTimestamp(Buffer.from('garbage'), imprint, identity.certificateDer).verificationStatus, 'failed');
});

test('POST /_sandbox/tsa: openssl ts -query, then openssl ts -verify with GET /_sandbox/tsa/certificate.pem; certReq, nonce, sandbox clock; errors in the envelope; OpenAPI', async (t) => {
  const server = await useServer(t);
  const dir = useTmpDir(t);

  // The certificate served is the data directory's TSA certificate.
  const pemResponse = await server.call('GET', '/_sandbox/tsa/certificate.pem', { key: null });
  assert.equal(pemResponse.status, 200);
  assert.match(pemResponse.headers.get('content-type') ?? '', /^application\/x-pem-file/);
  const pem = await pemResponse.text();
  const stored = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'timestamp-authority.json'), 'utf8')) as {
    certificate_pem: string;
    private_key_sealed: string;
  };
  assert.equal(new X509Certificate(pem).fingerprint256, new X509Certificate(stored.certificate_pem).fingerprint256);
  assert.doesNotMatch(JSON.stringify(stored), /PRIVATE KEY/, 'the key is only stored sealed');

  // The token: certificate included (-cert), nonce echoed, genTime on the sandbox clock.
  fs.writeFileSync(path.join(dir, 'data.bin'), 'stamp me');
  const ask = async (args: string[]) => {
    const query = Buffer.from(execFileSync('openssl', ['ts', '-query', '-data', path.join(dir, 'data.bin'), ...args]));
    const response = await server.call('POST', '/_sandbox/tsa', { key: null, headers: { 'content-type': 'application/timestamp-query' }, body: query });
    return { query, response, body: Buffer.from(await response.arrayBuffer()) };
  };
  const before = Date.now();
  const first = await ask(['-sha256', '-cert']);
  assert.equal(first.response.status, 200, first.body.toString());
  assert.equal(first.response.headers.get('content-type'), 'application/timestamp-reply');
  const token = decodeTimestampReply(first.body).token as Buffer;
  const info = readTimestampToken(token);
  assert.deepEqual(info.nonce, decodeTimestampRequest(first.query).nonce);
  assert.equal(info.certificates.length, 1);
  assert.ok(info.genTime.getTime() >= before - 1000 && info.genTime.getTime() <= Date.now() + 1000, info.genTime.toISOString());
  // Without -cert: no certificate in the token; openssl then takes it as an untrusted extra.
  const bare = await ask(['-sha512', '-no_nonce']);
  assert.equal(bare.response.status, 200);
  assert.deepEqual(readTimestampToken(decodeTimestampReply(bare.body).token as Buffer).certificates, []);
  fs.writeFileSync(path.join(dir, 'bare.tsr'), bare.body);
  fs.writeFileSync(path.join(dir, 'tsa.pem'), pem);
  assert.match(
    run('openssl', [
      'ts',
      '-verify',
      '-data',
      path.join(dir, 'data.bin'),
      '-in',
      path.join(dir, 'bare.tsr'),
      '-CAfile',
      path.join(dir, 'tsa.pem'),
      '-untrusted',
      path.join(dir, 'tsa.pem'),
    ]),
    /Verification: OK/,
  );
  // The sandbox clock moved a day ahead: so is genTime.
  const advanced = await server.call('POST', '/_sandbox/clock/advance', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: 86_400 }),
  });
  assert.equal(advanced.status, 200);
  const later = readTimestampToken(decodeTimestampReply((await ask(['-sha256'])).body).token as Buffer);
  assert.ok(Math.abs(later.genTime.getTime() - (Date.now() + 86_400_000)) < 60_000, later.genTime.toISOString());

  // Bad input: the API's error envelope, 400 with what is wrong.
  const refused = async (body: Buffer | string, type: string, code: number, message: RegExp) => {
    const response = await server.call('POST', '/_sandbox/tsa', { key: null, headers: { 'content-type': type }, body });
    const answer = await json<Json>(response);
    assert.equal(response.status, code, JSON.stringify(answer));
    assert.deepEqual(Object.keys(answer.error).sort(), ['code', 'message', 'request_id']);
    assert.match(answer.error.message, message);
    return answer;
  };
  assert.equal((await refused('garbage', 'application/timestamp-query', 400, /not an RFC 3161 time-stamp request/)).error.code, 'invalid_request');
  await refused(
    Buffer.from(execFileSync('openssl', ['ts', '-query', '-data', path.join(dir, 'data.bin'), '-sha224'])),
    'application/timestamp-query',
    400,
    /unsupported hash algorithm/,
  );
  await refused(
    Buffer.from(execFileSync('openssl', ['ts', '-query', '-data', path.join(dir, 'data.bin'), '-tspolicy', '1.2.3.4'])),
    'application/timestamp-query',
    400,
    /policy .* only, not 1\.2\.3\.4/,
  );
  await refused('{}', 'application/json', 400, /Content-Type: application\/timestamp-query/);
  await refused(Buffer.alloc(20_000, 0x30), 'application/timestamp-query', 413, /./);

  // The OpenAPI document describes both routes with their media types.
  const openapi = await json<Json>(await server.call('GET', '/v1/openapi.json', { key: null }));
  const post = openapi.paths['/_sandbox/tsa']?.post;
  assert.ok(post, 'POST /_sandbox/tsa is documented');
  assert.ok(post.requestBody.content['application/timestamp-query']);
  assert.ok(post.responses['200'].content['application/timestamp-reply']);
  assert.equal(post.responses['400'].content['application/json'].schema.$ref, '#/components/schemas/ErrorEnvelope');
  assert.deepEqual(post.security, [], 'no API key: timestamping clients send none');
  assert.ok(openapi.paths['/_sandbox/tsa/certificate.pem']?.get.responses['200'].content['application/x-pem-file']);
});

test('a completed request is sealed PAdES B-T: pdfsig valid, openssl verifies the embedded token, evidence timestamps[] matches it; docs/timestamps.md runs as written', async (t) => {
  const server = await useServer(t);
  const dir = useTmpDir(t);
  const { id, signed, evidence, evidencePdf } = await completed(server, 'b-t');

  // docs/timestamps.md: its sh blocks in order, as written (the port aside), in one shell.
  const blocks = shellBlocks('docs/timestamps.md');
  assert.equal(blocks.length, 2, 'the signed PDF recipe and the HTTP authority');
  const script = blocks.join('\n').replaceAll('http://127.0.0.1:4010', server.url);
  // Asynchronously: the server answering curl runs in this process.
  const { stdout: docs } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
    cwd: dir,
    env: { ...process.env, API: `${server.url}/v1`, KEY: server.apiKey, ID: id },
    encoding: 'utf8',
  });
  assert.equal(docs.match(/Verification: OK/g)?.length, 2, docs);
  assert.match(docs, /Policy OID: 2\.25\.158638165192945812183714778727877752701/);
  assert.deepEqual(fs.readFileSync(path.join(dir, 'contract-signed.pdf')), signed);
  assert.deepEqual(fs.readFileSync(path.join(dir, 'token.der')), embeddedToken(signed).token, 'the recipe cuts out the embedded token');
  const signedFile = path.join(dir, 'signed.pdf');
  fs.writeFileSync(signedFile, signed);
  const report = pdfsigReport(signedFile);
  assert.match(report, /Signature Type: ETSI\.CAdES\.detached/);
  assert.match(report, /Signature Validation: Signature is Valid\./);
  assert.match(report, /Total document signed/);

  const { token, signatureDigest, unsignedTypes } = embeddedToken(signed);
  assert.deepEqual(unsignedTypes, ['1.2.840.113549.1.9.16.2.14']);
  const pem = await (await server.call('GET', '/_sandbox/tsa/certificate.pem', { key: null })).text();
  assert.match(opensslVerifyToken(token, signatureDigest, pem, dir), /Verification: OK/);
  const read = readTokenWithOpenssl(token, dir);
  assert.equal(read.imprint, signatureDigest);
  assert.equal(read.hashAlgorithm, 'sha256');
  assert.equal(read.policy, TSA_POLICY);
  // genTime is the seal's time on the sandbox clock (the signature dictionary's /M), or just after.
  const m = /\/M\s*\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z?/.exec(signed.toString('latin1'));
  assert.ok(m);
  const sealedAt = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  assert.ok(
    read.genTime.getTime() >= sealedAt && read.genTime.getTime() - sealedAt < 60_000,
    `${read.genTime.toISOString()} vs /M ${new Date(sealedAt).toISOString()}`,
  );

  assert.deepEqual(evidence.timestamps, [
    { provider: TSA_CN, hash_algorithm: 'sha256', document_hash: signatureDigest, generated_at: read.genTime.toISOString(), verification_status: 'verified' },
  ]);
  assert.equal(evidence.trust.qualified_timestamp, false);

  // The evidence report states the timestamp, its authority and its status.
  fs.writeFileSync(path.join(dir, 'evidence.pdf'), evidencePdf);
  const text = run('pdftotext', ['-layout', path.join(dir, 'evidence.pdf'), '-']).replace(/\s+/g, ' ');
  assert.match(text, /PAdES baseline B-T/);
  assert.match(text, new RegExp(`Timestamp ${read.genTime.toISOString().slice(0, 10)} ${read.genTime.toISOString().slice(11, 19)} UTC`));
  assert.match(text, /Authority paraph sandbox TSA TEST ONLY/);
  assert.match(text, /Status verified: the token's signature and content were checked/);
  assert.ok(text.includes(signatureDigest.slice(0, 32)), 'the stamped hash is printed');

  // A tampered embedded token: paraph's check and openssl both refuse it.
  const tampered = Buffer.from(token);
  tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0xff;
  const described = describeTimestamp(tampered, Buffer.from(signatureDigest, 'hex'), new X509Certificate(pem).raw);
  assert.equal(described.verificationStatus, 'failed');
  assert.throws(() => opensslVerifyToken(tampered, signatureDigest, pem, dir));
  // The token stamps the signature value, nothing else.
  assert.deepEqual(signerInfoOf(cmsOf(signed)).signatureValue.length, 256);
});

test('--timestamps off (and PARAPH_TIMESTAMPS=off) seals PAdES B-B with timestamps: []', async (t) => {
  assert.equal(resolveConfig({}, {}, '/').timestamps, true, 'on by default');
  assert.equal(resolveConfig({}, { PARAPH_TIMESTAMPS: 'off' }, '/').timestamps, false);
  assert.equal(resolveConfig({ timestamps: 'on' }, { PARAPH_TIMESTAMPS: 'off' }, '/').timestamps, true, 'the flag wins');
  assert.throws(
    () => resolveConfig({}, { PARAPH_TIMESTAMPS: 'maybe' }, '/'),
    /PARAPH_TIMESTAMPS must be "on" or "off", got "maybe" \(from the environment: fix or unset PARAPH_TIMESTAMPS, or pass --timestamps\)/,
  );

  const server = await useServer(t, { timestamps: 'off' });
  const dir = useTmpDir(t);
  const { signed, evidence, evidencePdf } = await completed(server, 'b-b');
  fs.writeFileSync(path.join(dir, 'signed.pdf'), signed);
  assert.match(pdfsigReport(path.join(dir, 'signed.pdf')), /Signature Validation: Signature is Valid\./);
  assert.equal(signerInfoOf(cmsOf(signed)).unsigned.size, 0, 'no unsigned attributes: B-B');
  assert.deepEqual(evidence.timestamps, []);
  fs.writeFileSync(path.join(dir, 'evidence.pdf'), evidencePdf);
  const text = run('pdftotext', ['-layout', path.join(dir, 'evidence.pdf'), '-']).replace(/\s+/g, ' ');
  assert.match(text, /PAdES baseline B-B/);
  assert.match(text, /The seal carries no timestamp/);
  // The HTTP authority still answers: it is for clients' own timestamping.
  assert.equal((await server.call('GET', '/_sandbox/tsa/certificate.pem', { key: null })).status, 200);
});

test('--tsa-url: the address rules of webhooks, checked at start', () => {
  const flags = { tsaUrl: 'http://127.0.0.1:3180/tsa' };
  assert.throws(
    () => resolveConfig(flags, {}, '/'),
    (e: Error) =>
      e instanceof ConfigError && /--tsa-url must point to a public address, got a loopback one \(127\.0\.0\.1\).*--allow-loopback-webhooks/.test(e.message),
  );
  assert.equal(resolveConfig({ ...flags, allowLoopbackWebhooks: true }, {}, '/').tsaUrl, 'http://127.0.0.1:3180/tsa');
  assert.throws(() => resolveConfig({ tsaUrl: 'http://localhost/tsa' }, {}, '/'), /loopback/);
  assert.throws(() => resolveConfig({ tsaUrl: 'http://10.1.2.3/tsa' }, {}, '/'), /got a private one \(10\.1\.2\.3\)/);
  assert.throws(() => resolveConfig({}, { PARAPH_TSA_URL: 'ftp://tsa.example.com/' }, '/'), /PARAPH_TSA_URL must be an http\(s\) URL/);
  assert.throws(() => resolveConfig({ tsaUrl: 'https://user:pw@tsa.example.com/' }, {}, '/'), /without fragment or credentials/);
  assert.equal(resolveConfig({}, { PARAPH_TSA_URL: 'https://tsa.example.com/rfc3161' }, '/').tsaUrl, 'https://tsa.example.com/rfc3161');
});

test('--tsa-url: an external authority stamps the seal (unverified: no trust anchor); its failure fails the attempt, logged and retried; a tampered token is failed', async (t) => {
  // The authority: another paraph's /_sandbox/tsa, behind a loopback proxy that can fail or tamper.
  const authority = await useServer(t);
  let mode: 'fail' | 'pass' | 'tamper' = 'fail';
  let calls = 0;
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      calls += 1;
      if (mode === 'fail') {
        mode = 'pass';
        response.writeHead(500).end('down for maintenance');
        return;
      }
      const upstream = await fetch(`${authority.url}/_sandbox/tsa`, {
        method: 'POST',
        headers: { 'content-type': String(request.headers['content-type']) },
        body: Buffer.concat(chunks),
      });
      const body = Buffer.from(await upstream.arrayBuffer());
      // The token's signature value is its last bytes: one flipped bit breaks it.
      if (mode === 'tamper') body[body.length - 1] = (body[body.length - 1] ?? 0) ^ 0x01;
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? '' }).end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/tsa`;

  const { lines, stream } = logSink();
  const server = await useServer(t, { tsaUrl: url, allowLoopbackWebhooks: true }, {}, { log: pino({ level: 'warn' }, stream) });
  const dir = useTmpDir(t);

  // First attempt: the authority answers 500, the artifacts fail and the error is logged; the retry (5 s later) succeeds.
  const first = await completed(server, 'external');
  const failure = lines.find((l) => String(l.msg).startsWith('artifact generation failed'));
  assert.ok(failure, JSON.stringify(lines));
  assert.equal(failure.signature_request_id, first.id);
  assert.match(failure.err.message, /timestamp authority 127\.0\.0\.1:\d+: answered 500/);
  assert.ok(calls >= 2);
  const { token, signatureDigest } = embeddedToken(first.signed);
  const pem = await (await authority.call('GET', '/_sandbox/tsa/certificate.pem', { key: null })).text();
  assert.match(opensslVerifyToken(token, signatureDigest, pem, dir), /Verification: OK/, "the external authority's token, as it sent it");
  assert.deepEqual(first.evidence.timestamps, [
    {
      provider: TSA_CN,
      hash_algorithm: 'sha256',
      document_hash: signatureDigest,
      generated_at: readTimestampToken(token).genTime.toISOString(),
      verification_status: 'unverified',
    },
  ]);
  fs.writeFileSync(path.join(dir, 'external.pdf'), first.signed);
  assert.match(pdfsigReport(path.join(dir, 'external.pdf')), /Signature Validation: Signature is Valid\./);

  // A tampered token: embedded as received, reported failed, and logged.
  mode = 'tamper';
  const second = await completed(server, 'tampered');
  assert.equal(second.evidence.timestamps.length, 1);
  assert.equal(second.evidence.timestamps[0].verification_status, 'failed');
  assert.equal(second.evidence.timestamps[0].document_hash, embeddedToken(second.signed).signatureDigest);
  assert.ok(
    lines.some((l) => l.msg === 'the seal timestamp is not verified' && l.status === 'failed' && l.signature_request_id === second.id),
    JSON.stringify(lines),
  );
});

test('thirty years on the sandbox clock: the seal and its timestamp are still within their certificates (no expiry), verified', async (t) => {
  const server = await useServer(t);
  for (let i = 0; i < 3; i++) {
    const body = JSON.stringify({ seconds: 3650 * 86400 });
    assert.equal((await server.call('POST', '/_sandbox/clock/advance', { headers: { 'content-type': 'application/json' }, body })).status, 200);
  }
  const { signed, evidence } = await completed(server, 'thirty-years-on');
  const stamp = (evidence.timestamps as Json[])[0] as Json;
  assert.ok(Date.parse(stamp.generated_at as string) > Date.now() + 29 * 365 * 86400_000);
  assert.equal(stamp.verification_status, 'verified');
  const authority = new X509Certificate(await (await server.call('GET', '/_sandbox/tsa/certificate.pem')).text());
  assert.match(authority.validTo, /9999/);
  const file = path.join(useTmpDir(t), 'signed.pdf');
  fs.writeFileSync(file, signed);
  const report = pdfsigReport(file);
  assert.match(report, /Signature is Valid\./);
  assert.doesNotMatch(report, /expired/i);
});
