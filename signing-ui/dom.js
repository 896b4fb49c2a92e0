// @ts-check
// Building elements and icons.

// Small helpers

/** @typedef {Node | string | number | boolean | null | undefined} Child */

/**
 * Creates an element; `text` sets textContent, `on*` adds listeners, `style` is an object.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, any>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'style') Object.assign(el.style, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// Material Design icons (Apache License 2.0), 24 x 24.
export const ICONS = {
  pen: 'M3 17.25V21h3.75L17.81 9.94l-3.75-3.75L3 17.25zM20.71 7.04a1 1 0 0 0 0-1.41l-2.34-2.34a1 1 0 0 0-1.41 0l-1.83 1.83 3.75 3.75 1.83-1.83z',
  check: 'M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z',
  checkCircle: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm-2 15-5-5 1.41-1.41L10 14.17l7.59-7.59L19 8l-9 9z',
  lock: 'M18 8h-1V6A5 5 0 0 0 7 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zm-6 9a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm3.1-9H8.9V6a3.1 3.1 0 0 1 6.2 0v2z',
  clock:
    'M11.99 2C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.25 3.15.75-1.23-4.5-2.67z',
  mail: 'M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2zm0 4-8 5-8-5V6l8 5 8-5v2z',
  alert: 'M1 21h22L12 2 1 21zm12-3h-2v-2h2v2zm0-4h-2v-4h2v4z',
  block:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM4 12a8 8 0 0 1 12.9-6.31L5.69 16.9A7.9 7.9 0 0 1 4 12zm8 8a7.9 7.9 0 0 1-4.9-1.69L18.31 7.1A8 8 0 0 1 12 20z',
  next: 'M12 4l-1.41 1.41L16.17 11H4v2h12.17l-5.58 5.59L12 20l8-8z',
  download: 'M19 9h-4V3H9v6H5l7 7 7-7zM5 18v2h14v-2H5z',
  zoomIn: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6v2z',
  zoomOut: 'M19 13H5v-2h14v2z',
  fit: 'M9 5v2H6.41l4.3 4.29-1.42 1.42L5 8.41V11H3V5h6zm6 0h6v6h-2V8.41l-4.29 4.3-1.42-1.42L17.59 7H15V5zM3 13h2v2.59l4.29-4.3 1.42 1.42L6.41 17H9v2H3v-6zm16 0h2v6h-6v-2h2.59l-4.3-4.29 1.42-1.42L19 15.59V13z',
  close: 'M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z',
};

/**
 * @param {keyof typeof ICONS} name
 * @param {string} [className]
 */
export function icon(name, className = 'icon') {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * Shrinks an element's text until it fits its box on one line (a long typed name gets smaller, never
 * cut), down to a quarter of its size, or to `min` px; measured once fonts are ready. When it does not
 * fit even so, `tooSmall` is called (to show something else in its place).
 * @param {HTMLElement} el
 * @param {{ min?: number, tooSmall?: () => void }} [options]
 */
export function fitText(el, { min = 0, tooSmall } = {}) {
  const fit = () => {
    if (!el.isConnected) return;
    el.style.fontSize = '';
    const base = parseFloat(getComputedStyle(el).fontSize);
    let size = base;
    const box = el.parentElement ?? el;
    const overflows = () => el.scrollWidth > box.clientWidth + 1 || el.scrollWidth > el.clientWidth + 1;
    while (size > Math.max(base / 4, min) && overflows()) {
      size *= 0.92;
      el.style.fontSize = `${size}px`;
    }
    if (tooSmall && (size < min || overflows())) tooSmall();
  };
  requestAnimationFrame(fit);
  document.fonts?.ready.then(fit);
}
