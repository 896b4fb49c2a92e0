// @ts-check
// The iframe messages: to the embedding origin only, never '*'.
import { framed, mode, state } from './context.js';

/**
 * @param {string} type
 * @param {Record<string, unknown>} [extra]
 */
export function post(type, extra = {}) {
  const view = state.view;
  if (mode !== 'embed' || !framed || !view?.embed_origin) return;
  const message = {
    source: view.brand,
    type,
    signatureRequestId: view.request?.id ?? '',
    clientReference: view.request?.client_reference ?? '',
    signerReference: view.signer?.reference ?? '',
    ...extra,
  };
  try {
    window.parent.postMessage(message, view.embed_origin);
  } catch {
    // an invalid origin: nothing to tell
  }
}
