import { emailCodeIn } from '../domain/email-code.js';
import type { CaughtEmail } from '../contract/sandbox.js';
import { poll, sandboxFetch } from './sandbox-http.js';

/** A running server and a key of the account whose caught mail is read (`/_sandbox/emails`). */
export interface CatcherAccess {
  origin: string;
  apiKey: string;
}

async function codeMails(access: CatcherAccess, requestId?: string): Promise<CaughtEmail[]> {
  const query = requestId === undefined ? '' : `?signature_request_id=${encodeURIComponent(requestId)}`;
  const { data } = await sandboxFetch<{ data: CaughtEmail[] }>(access.origin, access.apiKey, 'GET', `/_sandbox/emails${query}`);
  return data.filter((mail) => mail.kind === 'otp');
}

/** The email-code mails the catcher holds for the account now: codes that a later request is not answered by. */
export async function caughtCodeMailIds(access: CatcherAccess): Promise<Set<string>> {
  return new Set((await codeMails(access)).map((mail) => mail.id));
}

/** The code paraph emailed a signer, once the catcher has it: the newest such mail not in `skip`. */
export async function emailCodeFromCatcher(
  access: CatcherAccess,
  signer: { requestId: string; reference: string },
  skip: ReadonlySet<string> = new Set(),
  timeoutMs = 10_000,
): Promise<string | null> {
  const mail = await poll('the email code', timeoutMs, async () =>
    (await codeMails(access, signer.requestId)).find((m) => !skip.has(m.id) && m.signer_reference === signer.reference),
  );
  return emailCodeIn(mail.text);
}
