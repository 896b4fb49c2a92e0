import type { Migration } from 'kysely';
import * as m001 from './001-initial.js';
import * as m002 from './002-lifecycle.js';
import * as m003 from './003-artifacts.js';
import * as m005 from './005-idempotency-request-id.js';
import * as m006 from './006-webhooks.js';
import * as m007 from './007-mail.js';
import * as m008 from './008-templates.js';
import * as m009 from './009-signing.js';
import * as m010 from './010-artifacts-and-audit-chain.js';
import * as m011 from './011-request-list-index.js';
import * as m012 from './012-faults.js';
import * as m013 from './013-events-account-index.js';
import * as m014 from './014-webhook-attempt-headers.js';
import * as m015 from './015-receiver-checks.js';
import * as m016 from './016-sequential-mails.js';
import * as m017 from './017-idempotency-committed-answer.js';
import * as m018 from './018-signer-verifications.js';
import * as m019 from './019-artifact-attempts.js';
import * as m020 from './020-idempotency-row-answers.js';

/** A static map, so migrations survive bundling and npx (no directory scanning at run time). */
export const migrations: Record<string, Migration> = {
  '001-initial': m001,
  '002-lifecycle': m002,
  '003-artifacts': m003,
  '005-idempotency-request-id': m005,
  '006-webhooks': m006,
  '007-mail': m007,
  '008-templates': m008,
  '009-signing': m009,
  '010-artifacts-and-audit-chain': m010,
  '011-request-list-index': m011,
  '012-faults': m012,
  '013-events-account-index': m013,
  '014-webhook-attempt-headers': m014,
  '015-receiver-checks': m015,
  '016-sequential-mails': m016,
  '017-idempotency-committed-answer': m017,
  '018-signer-verifications': m018,
  '019-artifact-attempts': m019,
  '020-idempotency-row-answers': m020,
};
