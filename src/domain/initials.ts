/** A name's initials, one letter per word (hyphenated names count their parts): "Jeanne Dupont-Marie" → "JDM". */
export function initialsOf(name: string): string {
  return name
    .split(/[\s-]+/u)
    .filter(Boolean)
    .map((part) => Array.from(part)[0]?.toUpperCase() ?? '')
    .join('');
}
