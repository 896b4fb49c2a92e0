// @ts-check
// The signing page: loads the signer's view through the JSON API under the link, verifies the email
// code when asked, renders the PDF with pdf.js with the signer's fields on top, and signs or
// declines. Plain ES modules, no build step; the page's CSP allows only same-origin scripts.
import { api, viewPath } from './api.js';
import { guessLang, setLang, state } from './context.js';
import { showDocument } from './document.js';
import { post } from './embed.js';
import { showOtp } from './otp.js';
import { showClosed, showFatal, showLoading } from './screens.js';

async function start() {
  setLang(guessLang());
  showLoading();
  let view;
  try {
    view = await api('POST', viewPath());
  } catch (e) {
    showFatal(e, start);
    return;
  }
  state.view = view;
  setLang(view.lang);
  document.title = view.request?.document_name ? state.t('pageTitle', { document: view.request.document_name }) : state.t('pageTitleGeneric');
  if (view.state === 'closed') {
    // A signer's copy behind their email code (the link forwarded, or the completed mail's): the code first.
    if (view.verification_required) showOtp();
    else showClosed();
    return;
  }
  post('signing.loaded');
  if (view.verification_required) {
    post('signing.verification_required');
    showOtp();
    return;
  }
  await showDocument();
}

start();
