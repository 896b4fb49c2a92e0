/**
 * Running paraph from its TypeScript sources (the tests, the bench's source scenarios): Node strips the
 * types of a `.ts` module itself (22.18 and newer; the sources use only erasable syntax, which
 * `erasableSyntaxOnly` in tsconfig.json keeps so), and this module, loaded first with
 * `node --import ./src/platform/source-imports.ts`, points each `./module.js` import of a `.ts` module
 * to its `./module.ts` source, as the compiled dist/ has it. Child processes and worker threads started
 * from the sources load it too (platform/worker-handles.ts).
 *
 * It imports nothing of paraph's: it runs before any hook could resolve paraph's own imports.
 */
import fs from 'node:fs';
import module from 'node:module';

module.registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (parent?.startsWith('file:') && parent.endsWith('.ts') && specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../'))) {
      const source = new URL(`${specifier.slice(0, -3)}.ts`, parent);
      if (fs.existsSync(source)) return nextResolve(source.href, context);
    }
    return nextResolve(specifier, context);
  },
});
