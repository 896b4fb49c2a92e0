import fs from 'node:fs';
import path from 'node:path';
import { createHash, createPrivateKey, generateKeyPair, randomBytes, randomUUID, sign, X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';
const FILE_NAME = 'signing-certificate.json';
const FORMAT = 'paraph.signing-certificate/1';
const VALIDITY_YEARS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Subject (and issuer) of the test certificate: nobody can mistake it for a real one. */
export const TEST_SUBJECT = [
    { name: 'commonName', value: 'paraph sandbox TEST ONLY' },
    { name: 'organizationName', value: 'paraph sandbox - TEST ONLY, no legal value' },
    { shortName: 'OU', value: 'Test certificate - no advanced or qualified signature' },
];
/**
 * The data directory's signing identity: read from `signing-certificate.json`, or made once (key by
 * node:crypto, certificate by node-forge) and written with an atomic link, so two processes starting
 * together end up with the same one.
 */
export async function loadOrCreateSigningIdentity(dataDir, sealer, now) {
    const file = path.join(dataDir, FILE_NAME);
    if (!fs.existsSync(file)) {
        const { publicKey, privateKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
        const der = await buildTestCertificate({ publicKey, privateKey }, now);
        const stored = {
            format: FORMAT,
            certificate_pem: new X509Certificate(der).toString(),
            private_key_sealed: sealer.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), keyAad(der)).toString('base64'),
            created_at: now.toISOString(),
        };
        writeOnce(file, `${JSON.stringify(stored, null, 2)}\n`);
    }
    return readIdentity(file, sealer);
}
function readIdentity(file, sealer) {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (stored.format !== FORMAT)
        throw new Error(`${file} is not a paraph signing certificate`);
    const certificate = new X509Certificate(stored.certificate_pem);
    const der = certificate.raw;
    const privateKeyDer = sealer.open(Buffer.from(stored.private_key_sealed, 'base64'), keyAad(der));
    if (!certificate.checkPrivateKey(createPrivateKey({ key: privateKeyDer, format: 'der', type: 'pkcs8' }))) {
        throw new Error(`${file}: the private key does not belong to the certificate`);
    }
    return {
        certificateDer: der,
        privateKeyDer,
        sha256: createHash('sha256').update(der).digest('hex'),
        subject: certificate.subject.split('\n').map((part) => part.replace(/\\(.)/g, '$1')).join(', '),
        serialNumber: certificate.serialNumber,
        notBefore: new Date(certificate.validFrom).toISOString(),
        notAfter: new Date(certificate.validTo).toISOString(),
    };
}
/**
 * A self-signed X.509 v3 certificate for document signing. node-forge lays out the TBSCertificate
 * (loaded only here: it is needed once per data directory); node:crypto signs it (sha256WithRSAEncryption).
 */
export async function buildTestCertificate(keys, now) {
    const { default: forge } = await import('node-forge');
    const { pki, asn1 } = forge;
    const cert = pki.createCertificate();
    cert.publicKey = pki.publicKeyFromPem(keys.publicKey.export({ type: 'spki', format: 'pem' }).toString());
    cert.serialNumber = positiveSerial();
    cert.validity.notBefore = new Date(now.getTime() - DAY_MS);
    cert.validity.notAfter = new Date(now.getTime() + VALIDITY_YEARS * 365 * DAY_MS);
    cert.setSubject(TEST_SUBJECT);
    cert.setIssuer(TEST_SUBJECT);
    cert.setExtensions([
        { name: 'basicConstraints', cA: false, critical: true },
        { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
        { name: 'subjectKeyIdentifier' },
    ]);
    cert.signatureOid = pki.oids.sha256WithRSAEncryption;
    cert.siginfo.algorithmOid = cert.signatureOid;
    const tbs = pki.getTBSCertificate(cert);
    const tbsDer = Buffer.from(asn1.toDer(tbs).getBytes(), 'binary');
    cert.signature = sign('sha256', tbsDer, keys.privateKey).toString('binary');
    cert.tbsCertificate = tbs;
    return Buffer.from(asn1.toDer(pki.certificateToAsn1(cert)).getBytes(), 'binary');
}
/** 16 random bytes as a positive DER INTEGER (high bit clear, no leading zero byte). */
function positiveSerial() {
    const bytes = randomBytes(16);
    bytes[0] = ((bytes[0] ?? 0) & 0x7f) | 0x10;
    return bytes.toString('hex');
}
function keyAad(certificateDer) {
    return `signing-key:${createHash('sha256').update(certificateDer).digest('hex')}`;
}
/** Writes `file` unless it exists: temporary file, fsync, then link (which never replaces). */
function writeOnce(file, content) {
    const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`);
    const fd = fs.openSync(tmp, 'wx', 0o600);
    try {
        fs.writeSync(fd, content);
        fs.fsyncSync(fd);
    }
    finally {
        fs.closeSync(fd);
    }
    try {
        fs.linkSync(tmp, file);
    }
    catch (error) {
        if (error.code !== 'EEXIST')
            throw error;
    }
    finally {
        fs.rmSync(tmp, { force: true });
    }
}
//# sourceMappingURL=certificate.js.map