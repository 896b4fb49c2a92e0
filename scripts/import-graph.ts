// The import graph of src/: which module imports which, the layer each module belongs to, and the rule
// between layers; and the circles between folders, in src/ and in the two browser folders (signing-ui/,
// dashboard-ui/). Used by test/unit/layers.test.ts, and printed as a map by `npm run layers`.
import fs from 'node:fs';
import path from 'node:path';

/**
 * paraph's layers, top to bottom: a module may import its own layer and any layer below it, never one
 * above. runtime → features → model → context → pdf → platform → db → contract → domain.
 */
export const LAYERS = ['runtime', 'features', 'model', 'context', 'pdf', 'platform', 'db', 'contract', 'domain'] as const;
export type Layer = (typeof LAYERS)[number];

/** The layer of a module, from its path under src/. */
export function layerOf(file: string): Layer {
  const rel = file.replace(/\\/g, '/').replace(/^src\//, '');
  const top = rel.split('/')[0]!;
  if (['cli', 'http', 'smtp', 'programmatic', 'signer-client', 'server.ts', 'scheduler.ts', 'dispatcher.ts'].includes(top)) return 'runtime';
  if (top === 'context.ts') return 'context';
  if ((LAYERS as readonly string[]).includes(top)) return top as Layer;
  throw new Error(`${file}: no layer holds src/${top}; add it to scripts/import-graph.ts`);
}

/** Every .ts module under `root`/src with the src modules it imports (static imports, re-exports and import()). */
export function importGraph(root: string): Map<string, string[]> {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts')) files.push(rel);
    }
  };
  walk('src');
  const graph = new Map<string, string[]>();
  for (const file of files.sort()) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g)) {
      const spec = (m[1] ?? m[2])!;
      deps.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
    graph.set(file, [...deps].sort());
  }
  return graph;
}

/** The browser folders: plain ES modules the browser loads as they are. */
export const BROWSER_FOLDERS = ['signing-ui', 'dashboard-ui'] as const;

/** Every .js module of the browser folders with the modules it imports (static imports, re-exports, bare imports and import()). */
export function browserGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of BROWSER_FOLDERS) {
    const files = fs
      .readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => path.posix.join(folder, file.split(path.sep).join('/')))
      .filter((file) => /\.m?js$/.test(file) && !file.split('/').includes('vendor'))
      .sort();
    for (const file of files) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      const deps = new Set<string>();
      for (const m of text.matchAll(
        /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g,
      )) {
        deps.add(path.posix.normalize(path.posix.join(path.posix.dirname(file), (m[1] ?? m[2] ?? m[3])!)));
      }
      graph.set(file, [...deps].sort());
    }
  }
  return graph;
}

/**
 * The unit a module belongs to for folder circles: src/features/<feature>, src/<folder> (with its
 * subfolders), a file directly in src/ on its own; in the browser folders every module is its own unit.
 */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length === 2) return file;
  return parts.slice(0, parts[1] === 'features' && parts.length > 3 ? 3 : 2).join('/');
}

/** Import circles between units (`unitOf`): folders that import each other, directly or through others. */
export function folderCircles(graph: Map<string, string[]>): string[][] {
  const units = new Map<string, Set<string>>();
  for (const file of graph.keys()) units.set(unitOf(file), units.get(unitOf(file)) ?? new Set());
  for (const [file, deps] of graph) for (const dep of deps) if (graph.has(dep) && unitOf(dep) !== unitOf(file)) units.get(unitOf(file))!.add(unitOf(dep));
  return importCircles(new Map([...units].map(([unit, deps]) => [unit, [...deps].sort()])));
}

/** Imports that go up the layers: [importer, imported]. */
export function upwardImports(graph: Map<string, string[]>): Array<[string, string]> {
  const rank = (f: string) => LAYERS.indexOf(layerOf(f));
  const found: Array<[string, string]> = [];
  for (const [file, deps] of graph) for (const dep of deps) if (rank(dep) < rank(file)) found.push([file, dep]);
  return found;
}

/** Import circles between modules (strongly connected components of more than one module, or a self-import). */
export function importCircles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const circle: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        circle.push(w);
      } while (w !== v);
      if (circle.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(circle.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return circles;
}

/** Module-to-module counts between folders (src/<top>/ or src/features/<feature>/), for the map. */
export function folderEdges(graph: Map<string, string[]>): Map<string, number> {
  const folder = (f: string) => {
    const parts = f.replace(/^src\//, '').split('/');
    return parts[0] === 'features' && parts.length > 2 ? `features/${parts[1]}` : parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.ts$/, '');
  };
  const edges = new Map<string, number>();
  for (const [file, deps] of graph)
    for (const dep of deps) {
      const a = folder(file);
      const b = folder(dep);
      if (a !== b) edges.set(`${a} -> ${b}`, (edges.get(`${a} -> ${b}`) ?? 0) + 1);
    }
  return edges;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
  const graph = importGraph(root);
  const byLayer = new Map<Layer, Set<Layer>>();
  for (const [file, deps] of graph)
    for (const dep of deps) {
      if (layerOf(dep) === layerOf(file)) continue;
      if (!byLayer.has(layerOf(file))) byLayer.set(layerOf(file), new Set());
      byLayer.get(layerOf(file))!.add(layerOf(dep));
    }
  console.log(`${graph.size} modules; layers top to bottom: ${LAYERS.join(' → ')}\n`);
  for (const layer of LAYERS)
    console.log(
      `${layer.padEnd(9)} imports ${[...(byLayer.get(layer) ?? [])].sort((a, b) => LAYERS.indexOf(a) - LAYERS.indexOf(b)).join(', ') || 'nothing of paraph'}`,
    );
  const up = upwardImports(graph);
  const circles = importCircles(graph);
  console.log(`\nupward imports: ${up.length}`);
  for (const [a, b] of up) console.log(`  ${a} -> ${b}`);
  console.log(`import circles: ${circles.length}`);
  for (const c of circles) console.log(`  ${c.join(' <-> ')}`);
  const folders = folderCircles(new Map([...graph, ...browserGraph(root)]));
  console.log(`folder circles (src/ and ${BROWSER_FOLDERS.join('/, ')}/): ${folders.length}`);
  for (const c of folders) console.log(`  ${c.join(' <-> ')}`);
  if (process.argv.includes('--folders')) for (const [edge, n] of [...folderEdges(graph)].sort()) console.log(`${edge} ${n}`);
}
