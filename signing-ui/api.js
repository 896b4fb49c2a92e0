// @ts-check
// The signer's JSON API under the link.
import { apiBase, linkLang, mode, state } from './context.js';

/**
 * The secret of the email code entered in this iframe. The page keeps it in an HttpOnly cookie the
 * browser sends by itself; an iframe on another site gets no cookie of the link's origin, so it holds
 * the secret here (for this load only) and sends it as a header.
 * @type {string | null}
 */
let verification = null;

// ---------------------------------------------------------------------------------------------
// API

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {{ reason?: string, locked_until?: string }} [details] what the server gives to branch on
   *   (`reason`, docs/signer.md) and its facts; the message is only ever shown, never parsed
   */
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    /** @type {string | null} the error's reason under a signing link, e.g. `otp_locked` */
    this.reason = details.reason ?? null;
    /** @type {string | null} with `otp_locked`: the ISO time the lock ends */
    this.lockedUntil = details.locked_until ?? null;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  let response;
  try {
    response = await fetch(`${apiBase}${path}`, {
      method,
      cache: 'no-store',
      credentials: 'same-origin',
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(verification !== null ? { 'signer-verification': verification } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new ApiError(0, 'network', state.t('errorNetwork'));
  }
  if (mode === 'embed') verification = response.headers.get('signer-verification') ?? verification;
  if (!response.ok) {
    let payload = null;
    try {
      payload = await response.json();
    } catch {
      // not JSON: keep the status text
    }
    const error = payload?.error;
    throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? response.statusText, {
      reason: error?.reason,
      locked_until: error?.locked_until,
    });
  }
  return path === '/document' ? response.arrayBuffer() : response.json();
}

/** @param {unknown} error */
export function errorText(error) {
  if (error instanceof ApiError && error.code === 'network') return error.message;
  if (error instanceof ApiError) return state.t('errorServer', { message: error.message });
  return state.t('errorDocument');
}

export function viewPath() {
  return linkLang ? `/view?lang=${encodeURIComponent(linkLang.slice(0, 10))}` : '/view';
}
