import { createHash } from 'node:crypto';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import { cadesDetachedSignature } from './cms.js';
/** Room for the CMS in /Contents: a 2048-bit signature and one certificate take about 1.5 KB. */
const SIGNATURE_BYTES = 8192;
/**
 * @signpdf's stock signers build PKCS#7 without ESS signing-certificate-v2; this one builds the
 * PAdES B-B CMS (see cms.ts) over the bytes @signpdf hands it.
 */
export class CadesSigner extends Signer {
    #signer;
    constructor(signer) {
        super();
        this.#signer = signer;
    }
    async sign(pdfBuffer) {
        return cadesDetachedSignature(createHash('sha256').update(pdfBuffer).digest(), this.#signer);
    }
}
/**
 * Adds the signature field and dictionary (SubFilter ETSI.CAdES.detached, time in /M) for one
 * invisible seal. Save the document once after this, then `sealPdf` the bytes: any rewrite after the
 * signature would break it.
 */
export function addSealPlaceholder(doc, at, signerName) {
    pdflibAddPlaceholder({
        pdfDoc: doc,
        reason: 'Sealed on completion by the sandbox test certificate (TEST ONLY, no legal value)',
        contactInfo: '',
        name: signerName,
        location: 'paraph sandbox',
        signingTime: at,
        signatureLength: SIGNATURE_BYTES,
        subFilter: SUBFILTER_ETSI_CADES_DETACHED,
        appName: 'paraph',
    });
}
/** Fills the placeholder: /ByteRange over the whole file but /Contents, then the CMS into /Contents. */
export async function sealPdf(bytes, signer) {
    return new SignPdf().sign(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), new CadesSigner(signer));
}
//# sourceMappingURL=seal.js.map