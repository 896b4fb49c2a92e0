// @ts-check
// Zooming the document: larger or smaller than the page's width, back to the width; the fields
// follow (they are placed in percent of their page) and the pages are drawn again at their new size.
import { state } from './context.js';
import { rerenderPages } from './pages.js';
import { h, icon } from './dom.js';

const STEPS = [1, 1.25, 1.5, 2, 2.5, 3];

export function zoomControls() {
  const { t } = state;
  let step = 0;
  const level = h('span', { class: 'zoom-level', 'aria-live': 'polite' });
  const out = h(
    'button',
    { type: 'button', class: 'btn btn-icon btn-zoom', id: 'zoom-out', 'aria-label': t('zoomOut'), title: t('zoomOut') },
    icon('zoomOut', 'icon icon-sm'),
  );
  const into = h(
    'button',
    { type: 'button', class: 'btn btn-icon btn-zoom', id: 'zoom-in', 'aria-label': t('zoomIn'), title: t('zoomIn') },
    icon('zoomIn', 'icon icon-sm'),
  );
  const fit = h(
    'button',
    { type: 'button', class: 'btn btn-icon btn-zoom', id: 'zoom-fit', 'aria-label': t('zoomFit'), title: t('zoomFit') },
    icon('fit', 'icon icon-sm'),
  );
  let timer = 0;
  /** @param {number} next */
  const apply = (next) => {
    step = Math.max(0, Math.min(STEPS.length - 1, next));
    const zoom = STEPS[step];
    state.ui?.pages.style.setProperty('--zoom', String(zoom));
    state.ui?.pages.classList.toggle('is-zoomed', zoom > 1);
    level.textContent = t('zoomLevel', { n: Math.round(zoom * 100) });
    out.disabled = step === 0;
    into.disabled = step === STEPS.length - 1;
    fit.disabled = step === 0;
    clearTimeout(timer);
    timer = window.setTimeout(rerenderPages, 150);
  };
  out.addEventListener('click', () => apply(step - 1));
  into.addEventListener('click', () => apply(step + 1));
  fit.addEventListener('click', () => apply(0));
  const bar = h('div', { class: 'zoom', role: 'group', 'aria-label': t('zoomFit') }, out, level, into, fit);
  queueMicrotask(() => apply(0));
  return bar;
}
