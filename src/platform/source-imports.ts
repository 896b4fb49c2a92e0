/**
 * Running paraph from its TypeScript sources (the tests, the bench's source scenarios): Node strips the
 * types of a `.ts` module itself (22.18 and newer; the sources use only erasable syntax, which
 * `erasableSyntaxOnly` in tsconfig.json keeps so), and this module, loaded first with
 * `node --import ./src/platform/source-imports.ts`, points each `./module.js` import of a `.ts` module
 * to its `./module.ts` source, as the compiled dist/ has it. Child processes and worker threads started
 * from the sources load it too (platform/worker-handles.ts).
 *
 * The packages the sources import are loaded from their bundle when scripts/source-dependencies.js (run by
 * scripts/test.sh) has built it for the installed packages: a few dozen files instead of about 1,500
 * small modules. Without that bundle, or when package-lock.json has changed since, they load from
 * node_modules as usual.
 *
 * It imports nothing of paraph's: it runs before any hook could resolve paraph's own imports.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import module from 'node:module';

const root = new URL('../../', import.meta.url);
const bundled = new URL('node_modules/.cache/paraph/source-dependencies/', root);

/** The bundled packages (specifier → the bundle's URL), when the bundle is that of the installed packages. */
function bundledPackages(): Map<string, string> {
  try {
    const manifest = JSON.parse(fs.readFileSync(new URL('manifest.json', bundled), 'utf8')) as { lock: string; modules: Record<string, string> };
    const lock = createHash('sha256')
      .update(fs.readFileSync(new URL('package-lock.json', root)))
      .digest('hex');
    if (manifest.lock !== lock) return new Map();
    return new Map(Object.entries(manifest.modules).map(([specifier, file]) => [specifier, new URL(file, bundled).href]));
  } catch {
    return new Map();
  }
}

const packages = bundledPackages();

module.registerHooks({
  resolve(specifier, context, nextResolve) {
    const bundle = packages.get(specifier);
    if (bundle) return { url: bundle, format: 'module', shortCircuit: true };
    const parent = context.parentURL;
    if (parent?.startsWith('file:') && parent.endsWith('.ts') && specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../'))) {
      const source = new URL(`${specifier.slice(0, -3)}.ts`, parent);
      if (fs.existsSync(source)) return nextResolve(source.href, context);
    }
    return nextResolve(specifier, context);
  },
});
