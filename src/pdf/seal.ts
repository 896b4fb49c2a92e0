import { createHash } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import type { PDFDocument } from 'pdf-lib';
import { cadesDetachedSignature, cadesTimestampedSignature, type CmsSigner, type SignatureTimestamper } from './cms.js';

/**
 * Room for the CMS in /Contents: a 2048-bit signature and one certificate take about 1.5 KB, the
 * built-in authority's token as much again. An external authority's token may carry a chain of
 * certificates: twice the room then.
 */
export const SIGNATURE_BYTES = 8192;
export const SIGNATURE_BYTES_EXTERNAL_TSA = 16384;

/**
 * @signpdf's stock signers build PKCS#7 without ESS signing-certificate-v2; this one builds the
 * PAdES B-B CMS (see cms.ts) over the bytes @signpdf hands it, B-T when it has a timestamper.
 */
export class CadesSigner extends Signer {
  readonly #signer: CmsSigner;
  readonly #stamp: SignatureTimestamper | undefined;

  constructor(signer: CmsSigner, stamp?: SignatureTimestamper) {
    super();
    this.#signer = signer;
    this.#stamp = stamp;
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const digest = createHash('sha256').update(pdfBuffer).digest();
    return this.#stamp ? cadesTimestampedSignature(digest, this.#signer, this.#stamp) : cadesDetachedSignature(digest, this.#signer);
  }
}

/**
 * Adds the signature field and dictionary (SubFilter ETSI.CAdES.detached, time in /M) for one
 * invisible seal. Save the document once after this, then `sealPdf` the bytes: any rewrite after the
 * signature would break it.
 */
export function addSealPlaceholder(doc: PDFDocument, at: Date, signerName: string, room: number = SIGNATURE_BYTES): void {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    reason: 'Sealed on completion by the sandbox test certificate (TEST ONLY, no legal value)',
    contactInfo: '',
    name: signerName,
    location: 'paraph sandbox',
    signingTime: at,
    signatureLength: room,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'paraph',
  });
}

/**
 * Fills the placeholder: /ByteRange over the whole file but /Contents, then the CMS into /Contents
 * (PAdES B-T when `stamp` timestamps the signature value, B-B without).
 */
export async function sealPdf(bytes: Uint8Array, signer: CmsSigner, stamp?: SignatureTimestamper): Promise<Buffer> {
  return new SignPdf().sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new CadesSigner(signer, stamp));
}
