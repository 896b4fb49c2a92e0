/**
 * The summary the bench ends with: one row per measure (paraph's figure, the floor's or the peer's,
 * the ratio, the target and whether it is met), and the peak RSS of every serve it ran.
 */
import type { RssReading } from './serve.js';
import { fmt } from './stats.js';

export interface Row {
  measure: string;
  paraph: string;
  reference: string;
  ratio: string;
  target: string;
  /** true met, false not met, null: no target, or nothing measured. */
  met: boolean | null;
  note?: string;
}

/** A row with a ratio compared to a bound: `atMost` (ratio ≤ bound) or `atLeast`. */
export function ratioRow(
  measure: string,
  paraph: string,
  reference: string,
  ratio: number | null,
  bound: { atMost?: number; atLeast?: number },
  note?: string,
): Row {
  const target = bound.atMost !== undefined ? `<= ${bound.atMost}x` : `>= ${bound.atLeast}x`;
  const met = ratio === null || !Number.isFinite(ratio) ? null : bound.atMost !== undefined ? ratio <= bound.atMost : ratio >= (bound.atLeast ?? 0);
  return { measure, paraph, reference, ratio: ratio === null ? 'n/a' : `${ratio.toFixed(2)}x`, target, met, ...(note ? { note } : {}) };
}

/** A row with an absolute figure compared to a bound. */
export function valueRow(measure: string, value: number, unit: string, bound: { atMost?: number; atLeast?: number } | null, digits = 0, reference = '-'): Row {
  const target = bound === null ? '-' : bound.atMost !== undefined ? `<= ${fmt(bound.atMost)} ${unit}` : `>= ${fmt(bound.atLeast ?? 0)} ${unit}`;
  const met = bound === null || !Number.isFinite(value) ? null : bound.atMost !== undefined ? value <= bound.atMost : value >= (bound.atLeast ?? 0);
  return { measure, paraph: `${fmt(value, digits)} ${unit}`, reference, ratio: '-', target, met };
}

export function failedRow(measure: string, error: string): Row {
  return { measure, paraph: 'FAILED', reference: '-', ratio: '-', target: '-', met: false, note: error };
}

const metText = (met: boolean | null) => (met === null ? '-' : met ? 'met' : 'NOT met');

export function printTable(rows: Row[]): void {
  const header = ['measure', 'paraph', 'floor / peer', 'ratio', 'target', 'met'];
  const cells = rows.map((r) => [r.measure, r.paraph, r.reference, r.ratio, r.target, metText(r.met)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i] as number)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  const notes = rows.filter((r) => r.note);
  for (const r of notes) console.log(`  ${r.measure}: ${r.note}`);
}

/** The largest peak among all serves (serve itself plus the child processes alive when it stopped). */
export function peakRss(readings: readonly RssReading[]): { max: RssReading | null; lines: string[] } {
  let max: RssReading | null = null;
  for (const r of readings) if (max === null || r.totalMb > max.totalMb) max = r;
  // One line per scenario: its largest reading.
  const byScenario = new Map<string, RssReading>();
  for (const r of readings) {
    const seen = byScenario.get(r.scenario);
    if (!seen || r.totalMb > seen.totalMb) byScenario.set(r.scenario, r);
  }
  const lines = [...byScenario.values()].map(
    (r) =>
      `  ${r.scenario}: ${fmt(r.totalMb)} MiB` +
      (r.children.length > 0
        ? ` (serve ${fmt(r.serveMb)} MiB + ${r.children.map((c) => `${c.name} ${fmt(c.mb)} MiB`).join(' + ')} in child processes alive at the stop)`
        : ''),
  );
  return { max, lines };
}
