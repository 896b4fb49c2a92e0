import type { Context } from '../../context.js';
import { currentSigners, requestFields, signerMarks, type RequestRow, type SignerRow } from '../../model/request-queries.js';
import type { EarlierField } from '../../contract/signing.js';
import type { FieldType } from '../../contract/signature-requests.js';

/**
 * What the signers who already signed put on the document, as the signed PDF will draw it: their
 * values, typed marks and drawn marks, for the signing page to show read-only under the signer's own
 * fields. Only signers who signed; never another signer's pending input.
 */
export function earlierFields(ctx: Context, request: RequestRow, signer: SignerRow): EarlierField[] {
  const { db } = ctx;
  const signed = currentSigners(db, request.id).filter((s) => s.id !== signer.id && s.status === 'signed');
  if (signed.length === 0) return [];
  const byReference = new Map(signed.map((s) => [s.reference, s]));
  const marks = signerMarks(
    db,
    signed.map((s) => s.id),
  );
  const out: EarlierField[] = [];
  for (const field of requestFields(db, request.id)) {
    const owner = byReference.get(field.signer_reference);
    if (!owner) continue;
    const place = { type: field.type as FieldType, page: field.page, x: field.x, y: field.y, width: field.width, height: field.height };
    if (field.type === 'text' || field.type === 'date') {
      if (field.value) out.push({ ...place, value: field.value, image: '' });
      continue;
    }
    const mark = marks.find((m) => m.signer_id === owner.id && m.kind === field.type);
    if (!mark) continue;
    if (mark.method === 'drawn' && mark.image) out.push({ ...place, value: '', image: `data:image/png;base64,${Buffer.from(mark.image).toString('base64')}` });
    else out.push({ ...place, value: mark.text ?? '', image: '' });
  }
  return out;
}
