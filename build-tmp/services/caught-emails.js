import { sql } from 'kysely';
import { isoTime } from '../clock.js';
import { notFound } from '../errors.js';
/** Caught mail, newest first. */
export function listCaughtEmails(ctx, filter) {
    let query = ctx.db.q.selectFrom('emails').selectAll().orderBy('seq', 'desc').limit(filter.limit ?? 100);
    if (filter.accountId !== null)
        query = query.where('account_id', '=', filter.accountId);
    if (filter.signatureRequestId !== undefined)
        query = query.where('request_id', '=', filter.signatureRequestId);
    // Recipients are stored as a JSON array of lowercased addresses.
    if (filter.to)
        query = query.where(sql `instr(recipients, ${JSON.stringify(filter.to.trim().toLowerCase())}) > 0`);
    return ctx.db.all(query).map(emailView);
}
export function showCaughtEmail(ctx, id) {
    const row = ctx.db.first(ctx.db.q.selectFrom('emails').selectAll().where('id', '=', id));
    if (!row)
        throw notFound(`email ${id} does not exist`);
    return { ...emailView(row), headers: JSON.parse(row.headers), raw: Buffer.from(row.raw).toString('utf8') };
}
function emailView(row) {
    return {
        id: row.id,
        from: row.mail_from,
        to: JSON.parse(row.recipients),
        subject: row.subject,
        text: row.text,
        html: row.html,
        received_at: isoTime(row.received_at),
        kind: row.kind ?? null,
        signature_request_id: row.request_id,
        signer_reference: row.signer_reference,
    };
}
/** The code of the newest OTP mail caught for a signer (what `paraph sign --otp auto` reads). */
export function latestOtpCode(ctx, requestId, signerReference) {
    const row = ctx.db.first(ctx.db.q
        .selectFrom('emails')
        .select('text')
        .where('kind', '=', 'otp')
        .where('request_id', '=', requestId)
        .where('signer_reference', '=', signerReference)
        .orderBy('seq', 'desc'));
    return /\b(\d{6})\b/.exec(row?.text ?? '')?.[1] ?? null;
}
//# sourceMappingURL=caught-emails.js.map