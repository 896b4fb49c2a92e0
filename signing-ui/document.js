// The document: pages rendered with pdf.js, the signer's fields on top, progress, signing.
import { api, errorText } from './api.js';
import { joinList, state } from './context.js';
import { fitText, h, icon } from './dom.js';
import { openDecline } from './decline.js';
import { openPad } from './pad.js';
import { guideElement, guideTo, isPhone, onPhoneChange, updateGuide } from './guide.js';
import { finish, header, reloadIfClosed, render, senderName, setScreen } from './screens.js';
import { zoomControls } from './zoom.js';

const PDFJS_URL = '/signing-ui/vendor/pdf.min.mjs';
const PDFJS_WORKER_URL = '/signing-ui/vendor/pdf.worker.min.mjs';
const VALUE_MAX = 500;
/** Canvas pixels per CSS pixel when rendering pages (more is sharper but heavier). */
const MAX_DPR = 2;
const MAX_CANVAS_WIDTH = 2400;

let pdfjsPromise = null;
function loadPdfjs() {
  pdfjsPromise ??= import(PDFJS_URL).then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return pdfjs;
  });
  return pdfjsPromise;
}

export const isMark = (field) => field.type === 'signature' || field.type === 'initials';
export const isRequired = (field) => isMark(field) || field.editable;
export const isDone = (field) => (isMark(field) ? state.marks[field.type] !== null : String(state.values.get(field.id) ?? '').trim() !== '');

function humanize(name) {
  const words = name.replace(/_/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : '';
}

export function fieldLabel(field) {
  const { t } = state;
  if (field.type === 'signature') return t('fieldSignature');
  if (field.type === 'initials') return t('fieldInitials');
  if (field.field_key) return t(`key_${field.field_key}`);
  if (field.name) return humanize(field.name);
  return t(field.type === 'date' ? 'fieldDate' : 'fieldText');
}

const AUTOCOMPLETE = { signer_name: 'name', signer_email: 'email', company: 'organization', job_title: 'organization-title' };


export async function showDocument() {
  const { t, view } = state;
  setScreen('document');
  document.title = t('pageTitle', { document: view.request?.document_name ?? '' });
  state.values = new Map(view.fields.filter((f) => f.editable).map((f) => [f.id, f.value]));
  state.consent = false;

  const notices = h('div', { class: 'notices' });
  if (view.request?.message) {
    notices.append(
      h(
        'section',
        { class: 'notice notice-message', id: 'sender-message', 'aria-labelledby': 'sender-message-title' },
        icon('mail'),
        h(
          'div',
          {},
          h('h2', { class: 'notice-title', id: 'sender-message-title', text: view.request.sender_name ? t('senderMessage', { sender: senderName() }) : t('senderMessageNoName') }),
          h('blockquote', { class: 'message-text', dir: 'auto', text: view.request.message }),
        ),
      ),
    );
  }
  if (view.waiting_for.length > 0) {
    notices.append(
      h(
        'section',
        { class: 'notice notice-wait', role: 'status', id: 'waiting-notice' },
        icon('clock'),
        h('div', {}, h('h2', { class: 'notice-title', text: t('waitingTitle') }), h('p', { text: t('waitingText', { names: joinList(view.waiting_for) }) })),
      ),
    );
  }
  const errors = h('div', { class: 'errors', id: 'errors' });

  const progressText = h('p', { class: 'progress-text', id: 'progress-text', 'aria-live': 'polite' });
  const progressBar = h('div', { class: 'progress-bar', 'aria-hidden': 'true' }, h('span', { class: 'progress-fill' }));
  const nextButton = h('button', { type: 'button', class: 'btn btn-small btn-secondary', id: 'next-field' }, h('span', { text: t('nextField') }), icon('next', 'icon icon-sm icon-flip'));
  nextButton.addEventListener('click', focusNextField);
  const progress = h('div', { class: 'progress', role: 'group', 'aria-labelledby': 'progress-text' }, h('div', { class: 'progress-info' }, progressText, progressBar), nextButton);
  const guide = guideElement();

  const pages = h('div', { class: 'pages', id: 'document', dir: 'ltr', tabindex: '-1', role: 'region', 'aria-label': t('documentRegion') });
  pages.append(h('p', { class: 'pages-loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), h('span', { text: t('loadingDocument') })));

  const consent = h('input', { type: 'checkbox', id: 'consent', class: 'checkbox' });
  consent.addEventListener('change', () => {
    state.consent = consent.checked;
    updateProgress();
  });
  const signButton = h('button', { type: 'button', class: 'btn btn-primary', id: 'sign-button', 'aria-describedby': 'sign-hint' }, icon('pen', 'icon icon-sm'), h('span', { text: t('sign') }));
  signButton.addEventListener('click', doSign);
  const declineButton = h('button', { type: 'button', class: 'btn btn-secondary', id: 'decline-button', text: t('decline') });
  declineButton.addEventListener('click', () => openDecline(declineButton));
  const hint = h('p', { class: 'hint', id: 'sign-hint' });

  const actions = h(
    'footer',
    { class: 'actionbar' },
    h(
      'div',
      { class: 'actionbar-inner' },
      guide,
      h('div', { class: 'consent' }, consent, h('label', { for: 'consent', text: t('consent') })),
      h('div', { class: 'buttons' }, declineButton, signButton),
      hint,
    ),
  );

  state.ui = { progressText, progressBar, nextButton, signButton, declineButton, hint, errors, pages, consent, guide, entries: [] };
  render(
    h(
      'div',
      { class: 'layout layout-document' },
      h('a', { class: 'skip-link', href: '#document', text: t('skipToDocument') }),
      header({ heading: true }),
      h(
        'main',
        { class: 'main', id: 'main' },
        notices,
        errors,
        progress,
        zoomControls(),
        pages,
        h('p', { class: 'sandbox-note', text: t('testNote') }),
      ),
      actions,
    ),
  );
  updateProgress();

  try {
    const [pdfjs, bytes] = await Promise.all([loadPdfjs(), api('GET', '/document')]);
    const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, enableXfa: false, disableFontFace: false }).promise;
    await layoutPages(pdf);
  } catch (e) {
    console.error(e);
    if (await reloadIfClosed(e)) return;
    pages.replaceChildren(
      h(
        'div',
        { class: 'notice notice-error', role: 'alert' },
        icon('alert'),
        h('div', {}, h('p', { text: errorText(e) }), h('button', { type: 'button', class: 'btn btn-small btn-secondary', onclick: () => showDocument(), text: t('retry') })),
      ),
    );
  }
}

/** Places every page (at its displayed size, rotation included) with its fields; canvases render lazily. */
async function layoutPages(pdf) {
  const { t, view } = state;
  const { pages } = state.ui;
  const entries = [];
  const frag = document.createDocumentFragment();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const viewport = page.getViewport({ scale: 1 });
    const width = viewport.width;
    const height = viewport.height;
    const canvas = h('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
    const overlay = h('div', { class: 'overlay' });
    const fields = view.fields.filter((f) => f.page === n).sort((a, b) => a.y - b.y || a.x - b.x);
    for (const field of fields) overlay.append(fieldElement(field, width, height));
    const el = h(
      'section',
      { class: 'page', 'aria-label': t('pageLabel', { n, total: pdf.numPages }), dataset: { page: String(n) }, style: { aspectRatio: `${width} / ${height}` } },
      canvas,
      overlay,
    );
    entries.push({ page, el, canvas, width, renderedPx: 0, task: null });
    frag.append(el);
  }
  pages.replaceChildren(frag);
  state.ui.entries = entries;
  refreshMarks();
  onPhoneChange(applyPhoneMode);
  applyPhoneMode();
  updateProgress();

  const byElement = new Map(entries.map((e) => [e.el, e]));
  const observer = new IntersectionObserver(
    (items) => {
      for (const item of items) if (item.isIntersecting) renderPage(byElement.get(item.target));
    },
    { rootMargin: '1200px 0px' },
  );
  for (const entry of entries) observer.observe(entry.el);
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => entries.filter((e) => e.renderedPx > 0).forEach((e) => renderPage(e)), 250);
  });
}

/** Re-renders the pages already drawn at the width they now have (after a resize or a zoom). */
export function rerenderPages() {
  for (const entry of state.ui?.entries ?? []) if (entry.renderedPx > 0) renderPage(entry);
}

/** Phones fill fields in the guide at the bottom: the fields on the page only point there. */
function applyPhoneMode() {
  const phone = isPhone();
  for (const input of document.querySelectorAll('.field-input')) {
    input.readOnly = phone;
    input.tabIndex = phone ? -1 : 0;
  }
}

async function renderPage(entry) {
  if (!entry || entry.task) return;
  const cssWidth = entry.el.clientWidth || 600;
  const dpr = Math.min(window.devicePixelRatio || 1, MAX_DPR);
  const target = Math.min(Math.round(cssWidth * dpr), MAX_CANVAS_WIDTH);
  if (entry.renderedPx >= target * 0.9 && entry.renderedPx <= target * 1.6) return;
  const viewport = entry.page.getViewport({ scale: target / entry.width });
  // Render off-screen, then swap: the page never flashes blank on a resize.
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.className = 'page-canvas';
  canvas.setAttribute('aria-hidden', 'true');
  try {
    entry.task = entry.page.render({ canvas, viewport });
    await entry.task.promise;
    entry.canvas.replaceWith(canvas);
    entry.canvas = canvas;
    entry.renderedPx = target;
    entry.el.dataset.rendered = 'true';
  } catch (e) {
    if (e?.name !== 'RenderingCancelledException') console.error(e);
  } finally {
    entry.task = null;
  }
}

function fieldElement(field, pageWidth, pageHeight) {
  const { t } = state;
  const label = t('fieldOnPage', { label: fieldLabel(field), n: field.page });
  const box = h('div', {
    class: `field-box field-${field.type}${isRequired(field) ? ' is-required' : ' is-locked'}`,
    dataset: { fieldId: field.id, fieldName: field.name || '' },
    style: {
      left: `${(field.x / pageWidth) * 100}%`,
      top: `${(field.y / pageHeight) * 100}%`,
      width: `${(field.width / pageWidth) * 100}%`,
      height: `${(field.height / pageHeight) * 100}%`,
    },
  });
  // Text follows the field's height at any zoom (cqw: percent of the page's width).
  box.style.setProperty('--fs', `${((field.height * 0.58) / pageWidth) * 100}cqw`);

  if (isMark(field)) {
    const button = h('button', { type: 'button', class: 'field field-mark', 'aria-haspopup': 'dialog', dataset: { kind: field.type, label } });
    button.addEventListener('click', () => openPad(field.type, button));
    box.append(button);
  } else if (field.editable) {
    const isDate = field.type === 'date' && (field.value === '' || /^\d{4}-\d{2}-\d{2}$/.test(field.value));
    const input = h('input', {
      type: isDate ? 'date' : 'text',
      class: 'field field-input',
      maxlength: String(VALUE_MAX),
      required: true,
      'aria-required': 'true',
      'aria-label': t('fieldRequired', { label }),
      autocomplete: AUTOCOMPLETE[field.field_key] ?? 'off',
      dir: 'auto',
      name: field.name || field.id,
    });
    input.value = field.value;
    if (!isDate) input.placeholder = fieldLabel(field);
    input.addEventListener('input', () => {
      state.values.set(field.id, input.value);
      updateProgress();
    });
    input.addEventListener('click', () => {
      if (isPhone()) guideTo(field, { focus: true });
    });
    box.append(input);
  } else {
    const input = h('input', {
      type: 'text',
      class: 'field field-locked',
      readonly: true,
      'aria-readonly': 'true',
      'aria-label': t(field.read_only ? 'fieldReadOnly' : 'fieldAutomatic', { label }),
      dir: 'auto',
    });
    // Dates shown the signer's way; the value itself stays as the sender or the service set it.
    input.value = field.type === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(field.value) ? formatDay(field.value) : field.value;
    input.title = label;
    box.append(input, icon('lock', 'icon field-lock'));
  }
  return box;
}

/** Shows the adopted signature/initials in every field of that kind. */
export function refreshMarks() {
  const { t } = state;
  updateGuide();
  for (const button of document.querySelectorAll('.field-mark')) {
    const kind = button.dataset.kind;
    const mark = state.marks[kind];
    const label = button.dataset.label;
    button.replaceChildren();
    if (!mark) {
      const cta = t(kind === 'signature' ? 'signHere' : 'initialHere');
      button.append(icon('pen', 'icon field-icon'), h('span', { class: 'field-cta', text: cta }));
      // The accessible name starts with the words shown (WCAG 2.5.3).
      button.setAttribute('aria-label', `${cta}: ${t('fieldRequired', { label })}`);
    } else if (mark.type === 'drawn') {
      button.append(h('img', { class: 'mark-image', src: mark.image, alt: '' }));
      button.setAttribute('aria-label', t('changeMark', { label }));
    } else {
      const typed = h('span', { class: 'mark-typed script', dir: 'auto', text: mark.text });
      button.append(typed);
      fitText(typed);
      button.setAttribute('aria-label', t('changeMark', { label }));
    }
  }
}

export function updateProgress() {
  const ui = state.ui;
  if (!ui) return;
  const { t, view } = state;
  const required = view.fields.filter(isRequired);
  const done = required.filter(isDone).length;
  const progressText = required.length ? t('progress', { done, total: required.length }) : t('progressNone');
  if (ui.progressText.textContent !== progressText) ui.progressText.textContent = progressText;
  ui.progressBar.firstChild.style.width = `${required.length ? (done / required.length) * 100 : 100}%`;
  ui.nextButton.hidden = done === required.length;
  for (const box of document.querySelectorAll('.field-box.is-required')) {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    box.classList.toggle('is-done', field ? isDone(field) : false);
  }
  const complete = done === required.length;
  ui.signButton.disabled = state.busy || !view.can_sign || !complete || !state.consent;
  ui.declineButton.disabled = state.busy;
  ui.hint.textContent = !view.can_sign && view.waiting_for.length ? t('waitingShort', { names: joinList(view.waiting_for) }) : !complete || !state.consent ? t('signHint') : '';
  ui.hint.hidden = ui.hint.textContent === '';
  updateGuide();
}

/** A calendar day (YYYY-MM-DD) in the signer's language. */
function formatDay(day) {
  try {
    return new Intl.DateTimeFormat(state.lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  } catch {
    return day;
  }
}

/** Shows which field a "next" or a tap went to. */
export function highlight(box) {
  for (const other of document.querySelectorAll('.field-box.is-current')) if (other !== box) other.classList.remove('is-current');
  box?.classList.add('is-current');
}

export function focusNextField() {
  const { view } = state;
  const boxes = Array.from(document.querySelectorAll('.field-box.is-required'));
  const next = boxes.find((box) => {
    const field = view.fields.find((f) => f.id === box.dataset.fieldId);
    return field && !isDone(field);
  });
  const field = next && view.fields.find((f) => f.id === next.dataset.fieldId);
  if (field && isPhone()) {
    guideTo(field, { focus: true });
    return;
  }
  const control = next?.querySelector('input, button');
  if (!control) return;
  highlight(next);
  control.scrollIntoView({ block: 'center', behavior: 'smooth' });
  control.focus({ preventScroll: true });
}

function showBanner(message) {
  const { errors } = state.ui;
  const close = h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': state.t('dismiss') }, icon('close', 'icon icon-sm'));
  const banner = h('div', { class: 'notice notice-error', role: 'alert' }, icon('alert'), h('p', { text: message }), close);
  close.addEventListener('click', () => banner.remove());
  errors.replaceChildren(banner);
  banner.scrollIntoView({ block: 'nearest' });
}

async function doSign() {
  const { view, ui, t } = state;
  if (state.busy || ui.signButton.disabled) return;
  const fields = {};
  for (const field of view.fields) if (field.editable) fields[field.name || field.id] = state.values.get(field.id) ?? '';
  const body = { fields };
  for (const kind of ['signature', 'initials']) if (view.fields.some((f) => f.type === kind)) body[kind] = state.marks[kind];
  state.busy = true;
  updateProgress();
  ui.signButton.lastChild.textContent = t('signing');
  try {
    const outcome = await api('POST', '/sign', body);
    finish(outcome);
  } catch (e) {
    state.busy = false;
    ui.signButton.lastChild.textContent = t('sign');
    updateProgress();
    if (!(await reloadIfClosed(e))) showBanner(errorText(e));
  }
}

