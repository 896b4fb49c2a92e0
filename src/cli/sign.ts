import { Command } from 'commander';
import type { Env } from '../platform/config.js';
import { Value } from 'typebox/value';
import { MAX_REASON, MAX_TYPED_MARK } from '../domain/limits.js';
import { DeclineInput, OtpVerifyInput, TypedMarkText, type SignerView } from '../contract/signing.js';
import { actAsSigner, parseSigningLink, SignerApiError, SigningLinkError, type SigningLink } from '../signer-client/act-as-signer.js';
import { latestOtpCode } from '../features/mail/caught-emails.js';
import { withContext } from './data-dir-context.js';
import { dataDirOption } from './options.js';
import { printJson, UsageError, type Io } from './output.js';

/**
 * `paraph sign`: acts as the signer over HTTP, through the same JSON API the signing page uses, so a
 * tester drives a whole signing flow from the terminal.
 */
export function signCommand(io: Io, env: Env): Command {
  return new Command('sign')
    .description('act as the signer of a signing link: view, verify the email code, sign or decline')
    .argument('<signing_url>', 'the signing_url (or embed_url) of the signer')
    .option('--field <name=value>', 'a value for one of your text or date fields, by its name (or its id) (repeatable)', collect, [])
    .option('--otp <code>', "the email code, or 'auto' to read it from the SMTP catcher of --data-dir")
    .option('--decline <reason>', 'decline instead of signing')
    .option('--signature <text>', 'the typed signature (default: the signer name, else the email)')
    .option('--json', 'print JSON')
    .addOption(dataDirOption())
    .action(async (url: string, opts: { field: string[]; otp?: string; decline?: string; signature?: string; json?: boolean; dataDir?: string }) => {
      let link: SigningLink;
      try {
        link = parseSigningLink(url);
      } catch (error) {
        throw error instanceof SigningLinkError ? new UsageError(error.message) : error;
      }
      // Checked by the signing API's own schemas before anything is sent: a bad value is bad usage of the option.
      if (opts.otp !== undefined && opts.otp !== 'auto' && !Value.Check(OtpVerifyInput.properties.code, opts.otp)) {
        throw new UsageError(`--otp takes the 6-digit code of the email, or auto to read it from the SMTP catcher; got "${opts.otp}"`);
      }
      if (opts.decline !== undefined && !Value.Check(DeclineInput.properties.reason, opts.decline)) {
        throw new UsageError(`--decline takes the reason for declining, 1 to ${MAX_REASON} characters`);
      }
      if (opts.signature !== undefined && (!Value.Check(TypedMarkText, opts.signature) || [...opts.signature].length > MAX_TYPED_MARK)) {
        throw new UsageError(`--signature takes the typed signature, 1 to ${MAX_TYPED_MARK} characters (got ${[...opts.signature].length})`);
      }
      const fields = Object.fromEntries(
        opts.field.map((pair) => {
          const at = pair.indexOf('=');
          if (at < 1) throw new UsageError(`--field takes NAME=VALUE, got "${pair}"`);
          return [pair.slice(0, at), pair.slice(at + 1)];
        }),
      );
      const fromCatcher = (view: SignerView) => withContext(opts, env, (ctx) => latestOtpCode(ctx, view.request?.id ?? '', view.signer?.reference ?? ''));
      const { view, outcome } = await actAsSigner(link, {
        fields,
        ...(opts.signature !== undefined ? { signature: opts.signature } : {}),
        ...(opts.decline !== undefined ? { decline: opts.decline } : {}),
        ...(opts.otp === undefined ? {} : { otp: opts.otp === 'auto' ? fromCatcher : opts.otp }),
      }).catch((error: unknown) => {
        // Said the CLI's way: which option to give.
        if (error instanceof SignerApiError && error.reason === 'otp_required') {
          throw new SignerApiError('this signer must enter the code sent by email: a code was sent; run again with --otp CODE or --otp auto');
        }
        if (error instanceof SignerApiError && error.reason === 'otp_not_found') {
          throw new SignerApiError('no code found in the SMTP catcher of this data directory (is --data-dir the one serve uses?)');
        }
        throw error;
      });
      if (opts.json) return printJson(io, { signer_reference: view.signer?.reference, signature_request_id: view.request?.id, ...outcome });
      io.out(`${outcome.status === 'signed' ? 'Signed' : 'Declined'} as "${view.signer?.reference}"; the request is now ${outcome.request_status}.`);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
