/**
 * Text a request carries must be what paraph stores and compares: well-formed Unicode. A lone surrogate
 * (`"\ud800"` in JSON) and U+FFFD, the replacement character a lossy decoder puts where bytes were not UTF-8,
 * are refused: stored as UTF-8 both become U+FFFD, so two different values would become one (two signers'
 * references, two clients' `client_reference`s).
 */

const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

/** A value met on the way down, with how it was reached (its path is written only for the one that is ill-formed). */
interface Step {
  value: unknown;
  parent: Step | null;
  key: string | number | null;
}

/**
 * Where a decoded JSON value holds ill-formed text (a string or a property name), as `root.a[0].b`; null if nowhere.
 * Walked with a stack of its own, not by recursion: a body may nest hundreds of thousands of levels deep.
 */
export function illFormedTextAt(value: unknown, root: string): string | null {
  const pending: Step[] = [{ value, parent: null, key: null }];
  for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
    const item = step.value;
    if (typeof item === 'string') {
      if (ILL_FORMED.test(item)) return pathOf(step, root);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) pending.push({ value: item[index], parent: step, key: index });
    } else if (item !== null && typeof item === 'object') {
      const entries = Object.entries(item);
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, inner] = entries[index] as [string, unknown];
        if (ILL_FORMED.test(key)) return `${pathOf(step, root)} (a property name)`;
        pending.push({ value: inner, parent: step, key });
      }
    }
  }
  return null;
}

function pathOf(step: Step, root: string): string {
  const keys: Array<string | number> = [];
  for (let at: Step | null = step; at !== null && at.key !== null; at = at.parent) keys.push(at.key);
  return keys.reverse().reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`), root);
}

/** The message of a 400 for ill-formed text at `at`. */
export function illFormedTextMessage(at: string): string {
  return `${at} is not well-formed text: it holds a lone UTF-16 surrogate or U+FFFD, the replacement character left where bytes were not UTF-8; send UTF-8 text`;
}
