/**
 * A fault rule as a client gives it (the contract's FaultRuleInput has this shape): the next `count`
 * matching operations of an account fail or are late.
 */
export type FaultRuleInput =
  | { target: 'api'; method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'; path: string; status?: 429 | 500 | 503; delay_ms?: number; count?: number }
  | { target: 'webhook'; signature_request_id?: string; error: 'status' | 'timeout' | 'connection_refused'; status?: number; count?: number }
  | { target: 'mail'; signature_request_id?: string; count?: number }
  | { target: 'artifacts'; signature_request_id?: string; mode: 'fail' | 'delay'; delay_ms?: number; count?: number };

/** A rule as stored: the input with its defaults filled in (`count`, a webhook's `status`). */
export type FaultSpec = FaultRuleInput & { count: number };
export type WebhookFaultSpec = Extract<FaultSpec, { target: 'webhook' }>;

/** What a rule is asked about: an API call, or one operation of a signature request. */
export type FaultOperation = { target: 'api'; method: string; path: string } | { target: 'webhook' | 'mail' | 'artifacts'; signatureRequestId: string };

const PARAMETER = /^\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * What the schema cannot say about a rule, as a sentence naming the property (`root.path …`), or
 * null when the rule is sound.
 */
export function faultRuleMistake(rule: FaultRuleInput, root: string): string | null {
  switch (rule.target) {
    case 'api': {
      if (rule.status !== undefined && rule.delay_ms !== undefined) {
        return `${root}.status and ${root}.delay_ms exclude each other: a rule either refuses calls or delays them`;
      }
      if (rule.status === undefined && rule.delay_ms === undefined) return `${root}.status or ${root}.delay_ms is required`;
      return apiPathMistake(rule.path, `${root}.path`);
    }
    case 'webhook':
      if (rule.status !== undefined && rule.error !== 'status') return `${root}.status goes only with "error": "status"`;
      return null;
    case 'mail':
      return null;
    case 'artifacts':
      if (rule.mode === 'delay' && rule.delay_ms === undefined) return `${root}.delay_ms is required with "mode": "delay"`;
      if (rule.mode === 'fail' && rule.delay_ms !== undefined) return `${root}.delay_ms goes only with "mode": "delay"`;
      return null;
  }
}

function apiPathMistake(path: string, at: string): string | null {
  if (path === '*') return null;
  const advice = 'give `*` or a path such as /v1/signature-requests/{id}';
  if (!path.startsWith('/v1/')) return `${at} must start with /v1/ (faults apply to the API, never to /_sandbox): ${advice}`;
  const segments = path.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    if (segment === '*' && index === segments.length - 1) continue;
    if (segment === '' || segment.includes('*') || /[?#\s]/.test(segment) || (segment.includes('{') && !PARAMETER.test(segment))) {
      return `${at} has a malformed segment "${segment}": ${advice} (\`{name}\` is one whole segment, \`*\` only the last one)`;
    }
  }
  return null;
}

/** The rule with its defaults: one operation, and a webhook's refusal status 500. */
export function withDefaults(rule: FaultRuleInput): FaultSpec {
  const count = rule.count ?? 1;
  if (rule.target === 'webhook' && rule.error === 'status') return { ...rule, status: rule.status ?? 500, count };
  return { ...rule, count };
}

/**
 * Does `pattern` match a request path? `{name}` matches any one segment, a last segment `*` any
 * rest (one segment or more), and `*` alone every `/v1/` path. A query string is ignored.
 */
export function pathMatches(pattern: string, path: string): boolean {
  const bare = stripQuery(path);
  if (pattern === '*') return bare.startsWith('/v1/');
  const want = pattern.slice(1).split('/');
  const have = bare.replace(/\/+$/, '').slice(1).split('/');
  for (let i = 0; i < want.length; i += 1) {
    const segment = want[i] as string;
    if (segment === '*' && i === want.length - 1) return have.length > i && have[i] !== '';
    const actual = have[i];
    if (actual === undefined || actual === '') return false;
    if (!PARAMETER.test(segment) && segment !== actual) return false;
  }
  return have.length === want.length;
}

function stripQuery(path: string): string {
  const at = path.indexOf('?');
  return at === -1 ? path : path.slice(0, at);
}

/** Does the rule apply to this operation? (Whether it has firings left is the caller's business.) */
export function faultMatches(rule: FaultSpec, operation: FaultOperation): boolean {
  if (rule.target !== operation.target) return false;
  if (rule.target === 'api' && operation.target === 'api') {
    return (rule.method === undefined || rule.method === operation.method.toUpperCase()) && pathMatches(rule.path, operation.path);
  }
  if (rule.target === 'api' || operation.target === 'api') return false;
  return rule.signature_request_id === undefined || rule.signature_request_id === operation.signatureRequestId;
}

/** How a faulted webhook attempt is recorded: exactly as a real failure of that kind. */
export function webhookFaultOutcome(rule: WebhookFaultSpec, timeoutMs: number): { statusCode: number | null; error: string; durationMs: number } {
  switch (rule.error) {
    case 'status': {
      const status = rule.status ?? 500;
      return { statusCode: status, error: status < 400 ? `answered ${status}: redirects are not followed` : `answered ${status}`, durationMs: 0 };
    }
    case 'timeout':
      return { statusCode: null, error: `timed out after ${timeoutMs / 1000} s`, durationMs: timeoutMs };
    case 'connection_refused':
      return { statusCode: null, error: 'connection failed: ECONNREFUSED', durationMs: 0 };
  }
}

/** One line for people: what the rule matches and what it does. */
export function describeFault(rule: FaultSpec): string {
  const only = (id: string | undefined) => (id === undefined ? '' : ` of request ${id}`);
  switch (rule.target) {
    case 'api': {
      const path = rule.path === '*' ? 'any /v1 path' : rule.path;
      const call = rule.method === undefined ? `calls to ${path}` : `${rule.method} ${path}`;
      return rule.status !== undefined ? `${call}: answered ${rule.status}` : `${call}: delayed ${rule.delay_ms} ms`;
    }
    case 'webhook': {
      const how = rule.error === 'status' ? `answered ${rule.status ?? 500}` : rule.error === 'timeout' ? 'time out' : 'connection refused';
      return `webhook attempts${only(rule.signature_request_id)} fail: ${how}`;
    }
    case 'mail':
      return `mails${only(rule.signature_request_id)} fail to send`;
    case 'artifacts':
      return rule.mode === 'fail'
        ? `artifact generation${only(rule.signature_request_id)} fails`
        : `artifacts${only(rule.signature_request_id)} are ${rule.delay_ms} ms late`;
  }
}
