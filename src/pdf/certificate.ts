import fs from 'node:fs';
import path from 'node:path';
import { createHash, createPrivateKey, generateKeyPair, randomBytes, randomUUID, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Sealer } from '../platform/crypto/sealed.js';
import { DAY_MS } from '../domain/limits.js';

const FILE_NAME = 'signing-certificate.json';
const FORMAT = 'paraph.signing-certificate/1';
/**
 * The certificates' `notAfter`: RFC 5280's "no well-defined expiration date" (GeneralizedTime 99991231235959Z),
 * so a seal or a timestamp made at any time the sandbox clock can show is within its certificate's validity.
 */
const NO_EXPIRATION = Date.UTC(9999, 11, 31, 23, 59, 59);

/** The sandbox's seal: a self-signed test certificate and its RSA-2048 key. */
export interface SigningIdentity {
  certificateDer: Buffer;
  /** PKCS#8 DER of the private key, handed to the sealing worker; on disk it is only ever sealed. */
  privateKeyDer: Buffer;
  /** SHA-256 of the certificate's DER (what signing-certificate-v2 carries). */
  sha256: string;
  subject: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
}

interface StoredCertificate {
  format: string;
  certificate_pem: string;
  /** AES-256-GCM under the master key, bound to the certificate's SHA-256. */
  private_key_sealed: string;
  created_at: string;
}

/** Subject (and issuer) of the test certificate: nobody can mistake it for a real one. */
export const TEST_SUBJECT = [
  { name: 'commonName', value: 'paraph sandbox TEST ONLY' },
  { name: 'organizationName', value: 'paraph sandbox - TEST ONLY, no legal value' },
  { shortName: 'OU', value: 'Test certificate - no advanced or qualified signature' },
];

/** What differs between the seal's certificate and the timestamp authority's. */
interface IdentityKind {
  file: string;
  format: string;
  subject: typeof TEST_SUBJECT;
  extensions: object[];
  /** Binds the sealed key to its certificate; one prefix per kind. */
  aadPrefix: string;
  what: string;
}

const SEAL_KIND: IdentityKind = {
  file: FILE_NAME,
  format: FORMAT,
  subject: TEST_SUBJECT,
  extensions: [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ],
  aadPrefix: 'signing-key',
  what: 'signing certificate',
};

/** Subject of the test timestamp authority's certificate (its CN is the evidence's timestamp `provider`). */
export const TSA_SUBJECT = [
  { name: 'commonName', value: 'paraph sandbox TSA TEST ONLY' },
  { name: 'organizationName', value: 'paraph sandbox - TEST ONLY, no legal value' },
  { shortName: 'OU', value: 'Test timestamp authority - not a qualified timestamp' },
];

const TSA_KIND: IdentityKind = {
  file: 'timestamp-authority.json',
  format: 'paraph.timestamp-authority/1',
  subject: TSA_SUBJECT,
  // RFC 3161 2.3: the only extended key usage is timeStamping, and it is critical.
  extensions: [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    { name: 'extKeyUsage', timeStamping: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ],
  aadPrefix: 'tsa-key',
  what: 'timestamp authority certificate',
};

/**
 * The data directory's signing identity: read from `signing-certificate.json`, or made once (key by
 * node:crypto, certificate by node-forge) and written with an atomic link, so two processes starting
 * together end up with the same one.
 */
export function loadOrCreateSigningIdentity(dataDir: string, sealer: Sealer, now: Date): Promise<SigningIdentity> {
  return loadOrCreate(dataDir, sealer, now, SEAL_KIND);
}

/** The test timestamp authority's identity (`timestamp-authority.json`), made once like the seal's. */
export function loadOrCreateTsaIdentity(dataDir: string, sealer: Sealer, now: Date): Promise<SigningIdentity> {
  return loadOrCreate(dataDir, sealer, now, TSA_KIND);
}

async function loadOrCreate(dataDir: string, sealer: Sealer, now: Date, kind: IdentityKind): Promise<SigningIdentity> {
  const file = path.join(dataDir, kind.file);
  if (!fs.existsSync(file)) {
    const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const der = await buildTestCertificate({ publicKey, privateKey }, now, kind);
    const stored: StoredCertificate = {
      format: kind.format,
      certificate_pem: new X509Certificate(der).toString(),
      private_key_sealed: sealer.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), keyAad(der, kind)).toString('base64'),
      created_at: now.toISOString(),
    };
    writeOnce(file, `${JSON.stringify(stored, null, 2)}\n`);
  }
  return readIdentity(file, sealer, kind);
}

/**
 * When the data directory's test certificates stop being valid: the earliest `notAfter` of those already made (a
 * data directory made by an earlier paraph holds certificates valid 20 years), or null when none ends before
 * the latest time the sandbox clock can show.
 */
export function certificatesEnd(dataDir: string): number | null {
  let end: number | null = null;
  for (const kind of [SEAL_KIND, TSA_KIND]) {
    let notAfter: number;
    try {
      const stored = JSON.parse(fs.readFileSync(path.join(dataDir, kind.file), 'utf8')) as StoredCertificate;
      notAfter = Date.parse(new X509Certificate(stored.certificate_pem).validTo);
    } catch {
      // Not made yet (or unreadable: sealing with it says so).
      continue;
    }
    if (notAfter < NO_EXPIRATION) end = Math.min(end ?? notAfter, notAfter);
  }
  return end;
}

function readIdentity(file: string, sealer: Sealer, kind: IdentityKind): SigningIdentity {
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredCertificate;
  if (stored.format !== kind.format) throw new Error(`${file} is not a paraph ${kind.what}`);
  const certificate = new X509Certificate(stored.certificate_pem);
  const der = certificate.raw;
  const privateKeyDer = sealer.open(Buffer.from(stored.private_key_sealed, 'base64'), keyAad(der, kind));
  if (!certificate.checkPrivateKey(createPrivateKey({ key: privateKeyDer, format: 'der', type: 'pkcs8' }))) {
    throw new Error(`${file}: the private key does not belong to the certificate`);
  }
  return {
    certificateDer: der,
    privateKeyDer,
    sha256: createHash('sha256').update(der).digest('hex'),
    subject: certificate.subject
      .split('\n')
      .map((part) => part.replace(/\\(.)/g, '$1'))
      .join(', '),
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
  };
}

/**
 * A self-signed X.509 v3 test certificate (for document signing unless `kind` says otherwise).
 * node-forge lays out the TBSCertificate (loaded only here: it is needed once per data directory);
 * node:crypto signs it (sha256WithRSAEncryption).
 */
export async function buildTestCertificate(
  keys: { publicKey: KeyObject; privateKey: KeyObject },
  now: Date,
  kind: Pick<IdentityKind, 'subject' | 'extensions'> = SEAL_KIND,
): Promise<Buffer> {
  const { default: forge } = await import('node-forge');
  const { pki, asn1 } = forge;
  const cert = pki.createCertificate();
  cert.publicKey = pki.publicKeyFromPem(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = positiveSerial();
  cert.validity.notBefore = new Date(now.getTime() - DAY_MS);
  cert.validity.notAfter = new Date(NO_EXPIRATION);
  cert.setSubject(kind.subject);
  cert.setIssuer(kind.subject);
  cert.setExtensions(kind.extensions);
  cert.signatureOid = pki.oids.sha256WithRSAEncryption as string;
  cert.siginfo.algorithmOid = cert.signatureOid;
  const tbs = (pki as unknown as { getTBSCertificate(c: typeof cert): ReturnType<typeof pki.certificateToAsn1> }).getTBSCertificate(cert);
  const tbsDer = Buffer.from(asn1.toDer(tbs).getBytes(), 'binary');
  cert.signature = sign('sha256', tbsDer, keys.privateKey).toString('binary');
  (cert as unknown as { tbsCertificate: typeof tbs }).tbsCertificate = tbs;
  return Buffer.from(asn1.toDer(pki.certificateToAsn1(cert)).getBytes(), 'binary');
}

/** 16 random bytes as a positive DER INTEGER (high bit clear, no leading zero byte). */
function positiveSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10;
  return bytes.toString('hex');
}

function keyAad(certificateDer: Buffer, kind: IdentityKind): string {
  return `${kind.aadPrefix}:${createHash('sha256').update(certificateDer).digest('hex')}`;
}

/** Writes `file` unless it exists: temporary file, fsync, then link (which never replaces). */
function writeOnce(file: string, content: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.linkSync(tmp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
