// @ts-check
// The document's pages: pdf.js loaded on first use, every page placed at its displayed size with its
// fields over it, canvases rendered as they come into view and again at a new width.
import { isPhone, onPhoneChange, state } from './context.js';
import { fitText, h } from './dom.js';
import { fieldElement, placeOnPage } from './fields.js';
import { changed } from './store.js';

const PDFJS_URL = '/vendor/pdf.min.mjs';
const PDFJS_WORKER_URL = '/vendor/pdf.worker.min.mjs';
/** Canvas pixels per CSS pixel when rendering pages (more is sharper but heavier). */
const MAX_DPR = 2;
const MAX_CANVAS_WIDTH = 2400;

/** @type {Promise<typeof import('pdfjs-dist')> | null} */
let pdfjsPromise = null;
/** pdf.js, loaded once, on first use. */
export function loadPdfjs() {
  pdfjsPromise ??= import(PDFJS_URL).then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return pdfjs;
  });
  return pdfjsPromise;
}

/**
 * Places every page (at its displayed size, rotation included) with its fields; canvases render lazily.
 * @param {import('pdfjs-dist').PDFDocumentProxy} pdf
 */
export async function layoutPages(pdf) {
  const { t, view } = state;
  const ui = /** @type {import('./context.js').DocumentUi} */ (state.ui);
  const { pages } = ui;
  /** @type {import('./context.js').PageEntry[]} */
  const entries = [];
  const frag = document.createDocumentFragment();
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    // In the page's own units, as fields are (pdf.js would count a page with /UserUnit in its larger units).
    const viewport = page.getViewport({ scale: 1 / page.userUnit });
    const width = viewport.width;
    const height = viewport.height;
    const canvas = h('canvas', { class: 'page-canvas', 'aria-hidden': 'true' });
    const overlay = h('div', { class: 'overlay' });
    const fields = view.fields.filter((f) => f.page === n).sort((a, b) => a.y - b.y || a.x - b.x);
    // What earlier signers put on the page, read-only, under the signer's own fields.
    for (const earlier of (view.earlier_fields ?? []).filter((f) => f.page === n)) overlay.append(earlierElement(earlier, width, height));
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
  ui.entries = entries;
  onPhoneChange(applyPhoneMode);
  applyPhoneMode();

  /** @type {Map<Element, import('./context.js').PageEntry>} */
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

/**
 * A mark or value an earlier signer put, as the signed PDF draws it: read-only, under the signer's fields.
 * @param {import('./context.js').EarlierField} field
 * @param {number} pageWidth
 * @param {number} pageHeight
 */
function earlierElement(field, pageWidth, pageHeight) {
  const { t } = state;
  const mark = field.type === 'signature' || field.type === 'initials';
  const box = h('div', { class: `earlier-field earlier-${field.type}` });
  placeOnPage(box, field, pageWidth, pageHeight);
  if (field.image) {
    box.append(h('img', { class: 'mark-image', src: field.image, alt: t(field.type === 'initials' ? 'earlierInitials' : 'earlierSignature') }));
  } else {
    const text = h('span', { class: mark ? 'mark-typed script' : 'earlier-value', dir: 'auto', text: field.value });
    box.append(text);
    fitText(text);
    // The handwriting face loads on first use: fit again once it is there.
    if (mark)
      document.fonts?.load(`16px "Paraph Script"`, field.value).then(
        () => fitText(text),
        () => {},
      );
  }
  return box;
}

/** Re-renders the pages already drawn at the width they now have (after a resize or a zoom). */
export function rerenderPages() {
  for (const entry of state.ui?.entries ?? []) if (entry.renderedPx > 0) renderPage(entry);
}

/**
 * Phones fill fields in the guide at the bottom: the fields on the page only point there and show the
 * value, a date as the signed PDF writes it (ISO 8601, shorter than the browser's date box).
 */
function applyPhoneMode() {
  const phone = isPhone();
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('.field-input'))) {
    input.readOnly = phone;
    input.tabIndex = phone ? -1 : 0;
    if (input.dataset.date) input.type = phone ? 'text' : 'date';
  }
  changed('layout');
}

/** @param {import('./context.js').PageEntry | undefined} entry */
async function renderPage(entry) {
  if (!entry || entry.task) return;
  const cssWidth = entry.el.clientWidth || 600;
  const dpr = Math.min(window.devicePixelRatio || 1, MAX_DPR);
  const target = Math.min(Math.round(cssWidth * dpr), MAX_CANVAS_WIDTH);
  if (entry.renderedPx >= target * 0.9 && entry.renderedPx <= target * 1.6) return;
  const viewport = entry.page.getViewport({ scale: target / entry.width / entry.page.userUnit });
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
    if (/** @type {Error | undefined} */ (e)?.name !== 'RenderingCancelledException') console.error(e);
  } finally {
    entry.task = null;
  }
}
