// RFC 3161 tokens as outside tools see them: the token lifted out of a sealed PDF's CMS with
// node-forge (not paraph's DER code), read and verified with the openssl CLI.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

export const SIGNATURE_TIME_STAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

const kids = (node: forge.asn1.Asn1 | undefined) => (node?.value ?? []) as forge.asn1.Asn1[];
const derOf = (node: forge.asn1.Asn1) => Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary');
const oidOf = (node: forge.asn1.Asn1) => forge.asn1.derToOid(node.value as string);

/** The CMS in a signed PDF's /Contents (zero padding removed). */
export function cmsOf(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const match = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text);
  assert.ok(match, 'a /ByteRange');
  const [b = 0, c = 0] = [Number(match[2]), Number(match[3])];
  const der = Buffer.from(pdf.subarray(b + 1, c - 1).toString('latin1'), 'hex');
  const first = der[1] ?? 0;
  const lengthBytes = first & 0x80 ? first & 0x7f : 0;
  const contentLength = lengthBytes === 0 ? first : der.readUIntBE(2, lengthBytes);
  return der.subarray(0, 2 + lengthBytes + contentLength);
}

/** The SignerInfo's signature value and its unsigned attributes (type → DER of each value). */
export function signerInfoOf(cms: Buffer): { signatureValue: Buffer; unsigned: Map<string, Buffer[]> } {
  const contentInfo = forge.asn1.fromDer(forge.util.createBuffer(cms.toString('binary')));
  const signedData = kids(kids(contentInfo)[1])[0];
  const signerInfos = kids(signedData).at(-1);
  assert.equal(kids(signerInfos).length, 1, 'one SignerInfo');
  const parts = kids(kids(signerInfos)[0]);
  const unsignedNode = parts.find((n) => n.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && n.type === 1);
  const octetStrings = parts.filter((n) => n.tagClass === forge.asn1.Class.UNIVERSAL && n.type === forge.asn1.Type.OCTETSTRING);
  const signature = octetStrings.at(-1);
  assert.ok(signature, 'a signature value');
  const unsigned = new Map<string, Buffer[]>();
  for (const attr of kids(unsignedNode)) unsigned.set(oidOf(kids(attr)[0] as forge.asn1.Asn1), kids(kids(attr)[1]).map(derOf));
  return { signatureValue: Buffer.from(signature.value as string, 'binary'), unsigned };
}

/** The one signature-time-stamp token of a sealed PDF, and the SHA-256 of the signature value it must stamp. */
export function embeddedToken(pdf: Buffer): { token: Buffer; signatureDigest: string; unsignedTypes: string[] } {
  const { signatureValue, unsigned } = signerInfoOf(cmsOf(pdf));
  const tokens = unsigned.get(SIGNATURE_TIME_STAMP_TOKEN) ?? [];
  assert.equal(tokens.length, 1, 'one signature-time-stamp token');
  return { token: tokens[0] as Buffer, signatureDigest: createHash('sha256').update(signatureValue).digest('hex'), unsignedTypes: [...unsigned.keys()] };
}

export interface TokenText {
  genTime: Date;
  policy: string;
  hashAlgorithm: string;
  /** The message imprint, hex. */
  imprint: string;
  serial: string;
  nonce: string | null;
  text: string;
}

/** `openssl ts -reply -token_in -text`, the fields picked out. */
export function readTokenWithOpenssl(token: Buffer, dir: string): TokenText {
  const file = path.join(dir, `token-${createHash('sha256').update(token).digest('hex').slice(0, 12)}.der`);
  fs.writeFileSync(file, token);
  const text = execFileSync('openssl', ['ts', '-reply', '-in', file, '-token_in', '-text', '-token_out'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseTokenText(text);
}

export function parseTokenText(text: string): TokenText {
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  // "Time stamp: Nov 25 00:46:18.885 2026 GMT"
  const time = /^Time stamp: (\w{3}) +(\d+) (\d\d:\d\d:\d\d(?:\.\d+)?) (\d{4}) GMT$/m.exec(text);
  assert.ok(time, text);
  const imprint = /^Message data:\n((?: {4}[0-9a-f]{4} - .*\n)+)/m.exec(text)?.[1] ?? '';
  const hex = imprint
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(11, 58).replace(/[ -]/g, ''))
    .join('');
  const nonce = field('Nonce');
  return {
    genTime: new Date(`${time[1]} ${time[2]} ${time[4]} ${time[3]} GMT`),
    policy: field('Policy OID'),
    hashAlgorithm: field('Hash Algorithm'),
    imprint: hex,
    serial: field('Serial number').replace(/^0x/, ''),
    nonce: nonce === 'unspecified' || nonce === '' ? null : nonce.replace(/^0x/, ''),
    text,
  };
}

/**
 * `openssl ts -verify` of a token over `digestHex` with `caPem` as the trust anchor: answers its
 * output, throws (with openssl's words) when it does not verify.
 */
export function opensslVerifyToken(token: Buffer, digestHex: string, caPem: string, dir: string): string {
  const tokenFile = path.join(dir, 'verify-token.der');
  const caFile = path.join(dir, 'verify-ca.pem');
  fs.writeFileSync(tokenFile, token);
  fs.writeFileSync(caFile, caPem);
  return execFileSync('openssl', ['ts', '-verify', '-token_in', '-in', tokenFile, '-digest', digestHex, '-CAfile', caFile], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
