// @ts-check
// The dashboard's JSON API (`/_dashboard/api`) and the token that opens it.
//
// The dashboard URL carries the token in its fragment (`#token=…`). The page takes it from there,
// removes it from the address bar and keeps it in sessionStorage (this tab only). It goes to the API
// only in the `Authorization: Dashboard <token>` header, never in a URL.

const API = '/_dashboard/api';
const TOKEN_KEY = 'paraph.dashboard.token';

/** The API answered 401: the token is missing, wrong or rotated. */
export class Unauthorized extends Error {}

/** Takes a `#token=…` fragment into sessionStorage and leaves `#/requests` in the address bar. */
export function takeTokenFromUrl() {
  const match = /^#token=([^&]+)/.exec(location.hash);
  if (!match) return;
  let value = match[1];
  try {
    value = decodeURIComponent(value);
  } catch {
    // not percent-encoded: taken as it is
  }
  setToken(value);
  history.replaceState(null, '', `${location.pathname}${location.search}#/requests`);
}

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

/** @param {string} value */
export function setToken(value) {
  sessionStorage.setItem(TOKEN_KEY, value);
}

export function forgetToken() {
  sessionStorage.removeItem(TOKEN_KEY);
}

/**
 * @param {string} path under /_dashboard/api
 * @param {{ method?: string, body?: unknown }} [options]
 */
async function call(path, options = {}) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Dashboard ${token()}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${API}${path}`, {
    method: options.method ?? 'GET',
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  if (response.status === 401) throw new Unauthorized('the dashboard token is missing, wrong or rotated');
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
  }
  return response;
}

/**
 * A JSON answer of the API.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [options]
 * @returns {Promise<any>}
 */
export async function api(path, options = {}) {
  return (await call(path, options)).json();
}

/**
 * A binary answer (a PDF, an artifact) as bytes.
 * @param {string} path
 */
export async function apiBytes(path) {
  return new Uint8Array(await (await call(path)).arrayBuffer());
}

/**
 * Downloads a binary answer under `filename` (through a blob URL: the token never goes in a link).
 * @param {string} path
 * @param {string} filename
 */
export async function download(path, filename) {
  const response = await call(path);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * What a button does with a failed call: a 401 sends the page back to the sign-in field, anything
 * else is said in the view's status line.
 * @param {unknown} error
 * @param {HTMLElement} status
 * @param {string} what
 */
export function reportFailure(error, status, what) {
  if (error instanceof Unauthorized) {
    window.dispatchEvent(new CustomEvent('dashboard:unauthorized'));
    return;
  }
  status.textContent = `${what} failed: ${error instanceof Error ? error.message : String(error)}`;
  status.classList.add('error');
}
