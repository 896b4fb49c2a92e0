// @ts-check
// The request's document rendered with pdf.js (served beside the signing page, as it uses it), with
// every field's box drawn on its page and labelled with its type and signer.
import { apiBytes } from './api.js';
import { h } from './dom.js';

const PDFJS_URL = '/vendor/pdf.min.mjs';
const PDFJS_WORKER_URL = '/vendor/pdf.worker.min.mjs';
const MAX_PAGES = 30;

let pdfjsPromise = null;
function loadPdfjs() {
  pdfjsPromise ??= import(PDFJS_URL).then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return pdfjs;
  });
  return pdfjsPromise;
}

/**
 * A preview that fills itself in: pages as canvases, field boxes over them (positions in PDF points
 * from each page's top-left corner, drawn in percent so they follow any width).
 * @param {string} requestId
 * @param {Array<{ type: string, name: string, signer_reference: string, page: number, x: number, y: number, width: number, height: number }>} layout
 */
export function pdfPreview(requestId, layout) {
  const note = h('p', { class: 'help', role: 'status' }, 'Loading the document…');
  const pages = h('div', { class: 'pdf-pages' });
  const root = h('div', { class: 'pdf-preview', 'data-state': 'loading' }, note, pages);
  void render(requestId, layout, root, pages, note);
  return root;
}

/**
 * @param {string} requestId
 * @param {Parameters<typeof pdfPreview>[1]} layout
 * @param {HTMLElement} root
 * @param {HTMLElement} pages
 * @param {HTMLElement} note
 */
async function render(requestId, layout, root, pages, note) {
  try {
    const [pdfjs, bytes] = await Promise.all([loadPdfjs(), apiBytes(`/requests/${encodeURIComponent(requestId)}/document`)]);
    const pdf = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, enableXfa: false, disableFontFace: true }).promise;
    const count = Math.min(pdf.numPages, MAX_PAGES);
    note.textContent = `${pdf.numPages} page${pdf.numPages === 1 ? '' : 's'}, ${layout.length} field${layout.length === 1 ? '' : 's'} drawn${pdf.numPages > MAX_PAGES ? `; the first ${MAX_PAGES} pages shown` : ''}.`;
    for (let n = 1; n <= count; n += 1) {
      const page = await pdf.getPage(n);
      // In the page's own units, as fields are (pdf.js would count a page with /UserUnit in its larger units).
      const base = page.getViewport({ scale: 1 / page.userUnit });
      const scale = Math.min(2, (900 / base.width) * (window.devicePixelRatio || 1));
      const viewport = page.getViewport({ scale: scale / page.userUnit });
      const canvas = /** @type {HTMLCanvasElement} */ (h('canvas', { class: 'pdf-canvas', 'aria-hidden': 'true' }));
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      const fields = layout.filter((f) => f.page === n);
      const sheet = h(
        'div',
        {
          class: 'pdf-page',
          role: 'img',
          'aria-label': `Page ${n}${fields.length ? ` with ${fields.length} field${fields.length === 1 ? '' : 's'}: ${fields.map((f) => `${f.type} for ${f.signer_reference}`).join(', ')}` : ''}`,
        },
        canvas,
      );
      sheet.style.aspectRatio = `${base.width} / ${base.height}`;
      for (const field of fields) {
        const box = h(
          'div',
          { class: `field-box field-${field.type}`, 'aria-hidden': 'true' },
          h('span', {}, `${field.name || field.type} · ${field.signer_reference}`),
        );
        box.style.left = `${(field.x / base.width) * 100}%`;
        box.style.top = `${(field.y / base.height) * 100}%`;
        box.style.width = `${(field.width / base.width) * 100}%`;
        box.style.height = `${(field.height / base.height) * 100}%`;
        sheet.append(box);
      }
      pages.append(h('figure', { class: 'pdf-figure' }, sheet, h('figcaption', {}, `Page ${n}`)));
      await page.render({ canvasContext: /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')), viewport }).promise;
    }
    root.setAttribute('data-state', 'rendered');
  } catch (error) {
    root.setAttribute('data-state', 'failed');
    note.textContent = `The document cannot be shown: ${error instanceof Error ? error.message : String(error)}`;
  }
}
