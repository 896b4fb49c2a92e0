// @ts-check
// DOM building for the dashboard: every value from the API goes in through textContent or an
// attribute, never through HTML.

/**
 * An element: `attrs` become attributes (`class`, `href`, …; `on*` functions become listeners), the
 * children are nodes or strings (as text).
 * @param {string} tag
 * @param {Record<string, unknown>} [attrs]
 * @param {...(Node | string | number | null | undefined | false)} children
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
  return el;
}

/**
 * `2026-11-24 23:59:55 UTC`, or an em dash for none.
 * @param {string | null | undefined} value
 */
export function time(value) {
  if (!value) return '—';
  return h('time', { datetime: value }, value.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'));
}

/**
 * The value, or an em dash when it is empty.
 * @param {unknown} value
 */
export function text(value) {
  return value === null || value === undefined || value === '' ? '—' : String(value);
}

/** @param {string} status */
export function badge(status) {
  return h('span', { class: `badge badge-${status}` }, status);
}

/**
 * Cell contents as text, for the label a phone-width card shows.
 * @param {string | Node} header
 */
function label(header) {
  return typeof header === 'string' ? header : (header.textContent ?? '');
}

/**
 * A table in a keyboard-scrollable region; under ~600px wide each row shows as a card (every cell
 * labelled with its column's header).
 * @param {string} caption
 * @param {Array<string | Node>} headers
 * @param {Array<Array<Node | string | number | null | undefined | false>>} rows
 */
export function table(caption, headers, rows) {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      { class: 'cards' },
      h('caption', { class: 'visually-hidden' }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, i) => h('td', { 'data-label': label(headers[i] ?? '') }, cell))))),
    ),
  );
}

/** @param {Array<[string, Node | string]>} pairs */
export function definitions(pairs) {
  const dl = h('dl', { class: 'facts' });
  for (const [term, value] of pairs) dl.append(h('div', {}, h('dt', {}, term), h('dd', {}, value)));
  return dl;
}

/**
 * @param {string} title
 * @param {...(Node | string | null | undefined | false)} children
 */
export function section(title, ...children) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { 'aria-labelledby': id, id: `${id}-region` }, h('h2', { id }, title), ...children);
}

/** @param {string} text */
export function empty(text) {
  return h('p', { class: 'empty' }, text);
}

/** A live region that announces what a button did (or why it failed). */
export function statusLine() {
  return h('p', { class: 'status-line', role: 'status' });
}

/**
 * Replaces `target`'s children, keeping keyboard focus and open `<details>` on elements that carry
 * the same `data-key` after the change (live updates must not throw the user out of what they read).
 * @param {Element} target
 * @param {...Node} nodes
 */
export function replaceKeeping(target, ...nodes) {
  const active = document.activeElement;
  const focusKey = active && target.contains(active) ? active.getAttribute('data-key') : null;
  const open = new Set([...target.querySelectorAll('details[open][data-key]')].map((d) => d.getAttribute('data-key')));
  target.replaceChildren(...nodes);
  for (const details of target.querySelectorAll('details[data-key]')) if (open.has(details.getAttribute('data-key'))) details.setAttribute('open', '');
  if (focusKey) /** @type {HTMLElement | null} */ (target.querySelector(`[data-key="${CSS.escape(focusKey)}"]`))?.focus({ preventScroll: true });
}

/**
 * A duration in words: `2d 3h 4m 5s`, or `none`.
 * @param {number | null | undefined} seconds
 */
export function duration(seconds) {
  if (!seconds) return 'none';
  const parts = [];
  for (const [unit, size] of /** @type {Array<[string, number]>} */ ([
    ['d', 86400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ])) {
    const n = Math.floor(seconds / size);
    seconds -= n * size;
    if (n) parts.push(`${n}${unit}`);
  }
  return parts.join(' ');
}

/**
 * Puts a view in `main` and moves focus to its heading (so keyboard and screen reader users follow).
 * @param {...Node} nodes
 */
export function show(...nodes) {
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  main.replaceChildren(...nodes);
  main.removeAttribute('aria-busy');
  const heading = main.querySelector('h1');
  if (heading) {
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }
}
