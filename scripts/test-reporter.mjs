// The default reporter of `npm test`: one line per test file as it finishes, then every skipped test
// with its reason, every failure in full (with what the file printed), and the totals. The full
// output of node's own reporters stays available: PARAPH_TEST_REPORTER=spec (or tap) npm test.
import path from 'node:path';
import { inspect } from 'node:util';

const rel = (file) => (file ? path.relative(process.cwd(), file) : '(no file)');
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const indent = (text, by = '    ') => text.replace(/^/gm, by);

export default async function* compactReporter(source) {
  const failures = [];
  const skipped = [];
  const output = new Map(); // file -> what its process printed, shown only when it fails
  const totals = [];
  for await (const event of source) {
    const data = event.data ?? {};
    switch (event.type) {
      case 'test:stdout':
      case 'test:stderr':
        if (data.file) {
          // Output events name the file as given on the command line, test events by its full path.
          const file = path.resolve(data.file);
          output.set(file, (output.get(file) ?? '') + data.message);
        }
        break;
      case 'test:pass':
        if (data.skip !== undefined) skipped.push({ file: data.file, line: data.line, name: data.name, reason: data.skip === true ? '' : String(data.skip) });
        break;
      case 'test:fail':
        // A suite fails because a test inside failed: that test is reported, not the suite again.
        if (data.details?.type !== 'suite')
          failures.push({ file: data.file, line: data.line, name: data.name, error: data.details?.error, duration: data.details?.duration_ms ?? 0 });
        break;
      case 'test:summary':
        if (data.file) {
          const c = data.counts;
          const mark = c.failed > 0 || c.cancelled > 0 ? '✖' : '✔';
          const extra = [c.failed && `${c.failed} failed`, c.cancelled && `${c.cancelled} cancelled`, c.skipped && `${c.skipped} skipped`]
            .filter(Boolean)
            .join(', ');
          yield `${mark} ${rel(data.file)}  ${c.tests} tests${extra ? ` (${extra})` : ''}  ${seconds(data.duration_ms)}\n`;
        }
        break;
      case 'test:diagnostic':
        // The run's totals (tests, pass, fail, …), as the spec reporter words them.
        if (!data.file && data.nesting === 0) totals.push(`ℹ ${data.message}\n`);
        break;
      default:
        break;
    }
  }
  if (skipped.length > 0) {
    yield `\nSkipped (${skipped.length}):\n`;
    for (const s of skipped) yield `  ↷ ${s.name}  ${rel(s.file)}:${s.line}${s.reason ? `  (${s.reason})` : ''}\n`;
  }
  if (failures.length > 0) {
    yield `\nFailed (${failures.length}):\n`;
    const shownOutput = new Set();
    for (const f of failures) {
      const error = f.error?.cause ?? f.error;
      yield `\n✖ ${f.name}  ${rel(f.file)}:${f.line}  (${seconds(f.duration)})\n`;
      yield `${indent(inspect(error, { depth: 6, colors: false }))}\n`;
      const printed = f.file ? output.get(path.resolve(f.file)) : undefined;
      if (printed && !shownOutput.has(f.file)) {
        shownOutput.add(f.file);
        yield `  what ${rel(f.file)} printed:\n${indent(printed.trimEnd().split('\n').slice(-60).join('\n'))}\n`;
      }
    }
  }
  yield '\n';
  for (const line of totals) yield line;
}
