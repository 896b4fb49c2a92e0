// @ts-check
// The signature pad: the signer's signature or initials, drawn or typed (previewed in the
// handwriting font the signed PDF stamps typed marks in).
import { initialsOf, state } from './context.js';
import { openDialog } from './dialog.js';
import { fitText, h } from './dom.js';
import { setMark } from './store.js';

const TYPED_MAX = 100;

/** @typedef {'draw' | 'type'} Tab */

/**
 * @param {import('./context.js').MarkKind} kind
 * @param {HTMLElement | (() => HTMLElement | null)} opener what gets the focus back (openDialog)
 */
export function openPad(kind, opener) {
  const { t, view } = state;
  const isSignature = kind === 'signature';
  const existing = state.marks[kind];
  /** @type {Tab} */
  let tab = existing?.type === 'typed' ? 'type' : 'draw';

  // Drawing
  const canvas = h('canvas', {
    class: `pad-canvas pad-${kind}`,
    width: isSignature ? '720' : '360',
    height: '240',
    role: 'img',
    'aria-label': t(isSignature ? 'drawAreaSignature' : 'drawAreaInitials'),
  });
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 4;
  ctx.strokeStyle = '#17307a';
  ctx.fillStyle = '#17307a';
  let hasInk = false;
  /** @type {{ x: number, y: number } | null} */
  let last = null;
  /** @param {PointerEvent} e */
  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * canvas.width) / r.width, y: ((e.clientY - r.top) * canvas.height) / r.height };
  };
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    e.preventDefault();
    canvas.setPointerCapture(e.pointerId);
    last = point(e);
    ctx.beginPath();
    ctx.arc(last.x, last.y, ctx.lineWidth / 2, 0, Math.PI * 2);
    ctx.fill();
    hasInk = true;
    padError.textContent = '';
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!last) return;
    e.preventDefault();
    const events = typeof e.getCoalescedEvents === 'function' ? e.getCoalescedEvents() : [];
    for (const ev of events.length ? events : [e]) {
      const p = point(ev);
      ctx.beginPath();
      ctx.moveTo(last.x, last.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      last = p;
    }
  });
  const stop = () => {
    last = null;
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  const clear = h('button', { type: 'button', class: 'btn btn-small btn-secondary', text: t('clear') });
  clear.addEventListener('click', () => {
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    hasInk = false;
  });

  // Typing
  const typed = h('input', {
    id: 'pad-typed',
    class: 'input',
    type: 'text',
    maxlength: String(TYPED_MAX),
    autocomplete: isSignature ? 'name' : 'off',
    dir: 'auto',
  });
  const name = view.signer?.name ?? '';
  typed.value = existing?.type === 'typed' ? existing.text : isSignature ? name : initialsOf(name);
  const preview = h('p', { class: `pad-preview script pad-${kind}`, dir: 'auto', 'aria-label': t('typePreview') });
  const syncPreview = () => {
    preview.textContent = typed.value;
    fitText(preview);
    if (typed.value.trim()) padError.textContent = '';
  };
  typed.addEventListener('input', syncPreview);

  const drawPanel = h(
    'div',
    { class: 'pad-panel', id: 'pad-panel-draw', role: 'tabpanel', 'aria-labelledby': 'pad-tab-draw' },
    h('p', { class: 'dialog-text', id: 'draw-hint', text: t('drawHint') }),
    h('div', { class: 'pad-frame' }, canvas),
    h('div', { class: 'pad-tools' }, clear),
  );
  const typePanel = h(
    'div',
    { class: 'pad-panel', id: 'pad-panel-type', role: 'tabpanel', 'aria-labelledby': 'pad-tab-type' },
    h('label', { for: 'pad-typed', class: 'label', text: t(isSignature ? 'typeLabelSignature' : 'typeLabelInitials') }),
    typed,
    h('div', { class: 'pad-frame' }, preview),
  );
  const tabs = {
    draw: h('button', { type: 'button', role: 'tab', id: 'pad-tab-draw', class: 'tab', 'aria-controls': 'pad-panel-draw', text: t('tabDraw') }),
    type: h('button', { type: 'button', role: 'tab', id: 'pad-tab-type', class: 'tab', 'aria-controls': 'pad-panel-type', text: t('tabType') }),
  };
  /**
   * @param {Tab} which
   * @param {boolean} [focus]
   */
  const select = (which, focus = false) => {
    tab = which;
    for (const [key, button] of Object.entries(tabs)) {
      const selected = key === which;
      button.setAttribute('aria-selected', String(selected));
      button.tabIndex = selected ? 0 : -1;
    }
    drawPanel.hidden = which !== 'draw';
    typePanel.hidden = which !== 'type';
    padError.textContent = '';
    if (focus) tabs[which].focus();
    if (which === 'type') syncPreview();
  };
  for (const [key, button] of Object.entries(tabs)) {
    const which = /** @type {Tab} */ (key);
    button.addEventListener('click', () => select(which));
    button.addEventListener('keydown', (e) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) {
        e.preventDefault();
        select(which === 'draw' ? 'type' : 'draw', true);
      }
    });
  }
  const tablist = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('padModes') }, tabs.draw, tabs.type);

  const padError = h('p', { class: 'form-error', role: 'alert' });
  const apply = h('button', { type: 'submit', class: 'btn btn-primary', text: t('apply') });
  const cancel = h('button', { type: 'button', class: 'btn btn-secondary', text: t('cancel') });
  const titleId = 'pad-title';
  const form = h(
    'form',
    { class: 'dialog-body', novalidate: true },
    h('h2', { id: titleId, class: 'dialog-title', text: t(isSignature ? 'padTitleSignature' : 'padTitleInitials') }),
    tablist,
    drawPanel,
    typePanel,
    padError,
    h('div', { class: 'dialog-actions' }, cancel, apply),
  );
  const dialog = h('dialog', { class: 'dialog dialog-pad', 'aria-labelledby': titleId }, form);
  cancel.addEventListener('click', () => dialog.close());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    /** @type {import('./context.js').Mark | null} */
    let mark = null;
    if (tab === 'draw' && hasInk) mark = { type: 'drawn', image: croppedPng(canvas) };
    if (tab === 'type' && typed.value.trim()) mark = { type: 'typed', text: typed.value.trim().slice(0, TYPED_MAX) };
    if (!mark) {
      padError.textContent = t('padEmpty');
      return;
    }
    setMark(kind, mark);
    dialog.close();
  });
  select(tab);
  openDialog(dialog, opener);
  tabs[tab].focus();
}

/**
 * The drawing cropped to its ink (plus a margin), as a PNG data URL.
 * @param {HTMLCanvasElement} canvas
 */
function croppedPng(canvas) {
  const { width, height } = canvas;
  const data = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d')).getImageData(0, 0, width, height).data;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (data[(y * width + x) * 4 + 3] === 0) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX < 0) return canvas.toDataURL('image/png');
  const margin = 8;
  const sx = Math.max(0, minX - margin);
  const sy = Math.max(0, minY - margin);
  const sw = Math.min(width, maxX + margin + 1) - sx;
  const sh = Math.min(height, maxY + margin + 1) - sy;
  const out = document.createElement('canvas');
  out.width = sw;
  out.height = sh;
  /** @type {CanvasRenderingContext2D} */ (out.getContext('2d')).drawImage(canvas, sx, sy, sw, sh, 0, 0, sw, sh);
  return out.toDataURL('image/png');
}
