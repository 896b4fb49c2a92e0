#!/usr/bin/env bash
# The test run of `npm test` (after build and typecheck): every test/**/*.test.ts, or the files given
# (`npm test -- test/e2e/readme.test.ts`), two files at a time, each in its own process.
# Output: one line per file and the failures in full (scripts/test-reporter.mjs); node's own
# reporters on demand: PARAPH_TEST_REPORTER=spec npm test, or =tap.
set -euo pipefail
cd "$(dirname "$0")/.."
reporter="${PARAPH_TEST_REPORTER:-./scripts/test-reporter.mjs}"
if [ "$#" -gt 0 ]; then files=("$@"); else mapfile -t files < <(find test -name '*.test.ts' | sort); fi
# PARAPH_TEST_EXCLUDE: path prefixes (space-separated) left out of the run, e.g. test/browser/ (.ci/run).
if [ -n "${PARAPH_TEST_EXCLUDE:-}" ]; then
  kept=()
  for file in "${files[@]}"; do
    skip=0
    for prefix in $PARAPH_TEST_EXCLUDE; do case "$file" in ("$prefix"*) skip=1;; esac; done
    [ "$skip" = 1 ] && echo "left out (PARAPH_TEST_EXCLUDE): $file" >&2 || kept+=("$file")
  done
  files=("${kept[@]}")
fi
# PARAPH_TEST_SET=every-line: only the files whose first lines hold the marker `// Every line:` (with the
# Node-facing part they check): what `.ci/run` runs on the lines other than the full one, which runs
# every file (docs/node-lines.md).
if [ "${PARAPH_TEST_SET:-all}" = every-line ]; then
  kept=()
  for file in "${files[@]}"; do if head -n 5 "$file" | grep -q '^// Every line:'; then kept+=("$file"); fi; done
  echo "the every-line set: ${#kept[@]} of ${#files[@]} files (the others run on the full line)" >&2
  files=("${kept[@]}")
elif [ "${PARAPH_TEST_SET:-all}" != all ]; then
  echo "PARAPH_TEST_SET must be all or every-line, not ${PARAPH_TEST_SET}" >&2; exit 2
fi
# Node's compile cache for the test processes (each file is a process that loads the server's modules
# from the sources): the code compiled by the first file is reused by the others, about 0.4 CPU-s a file.
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-${TMPDIR:-/tmp}/paraph-test-compile-cache}"
# The test files load the TypeScript sources as they are (src/platform/source-imports.ts): that needs a
# Node that strips types by itself (22.18 and newer; paraph itself runs from dist/ on 22.14 and newer).
node -e 'process.features.typescript || (console.error(`the tests load the TypeScript sources with Node\x27s own type stripping, which Node ${process.version} does not have: use Node 22.18 or newer`), process.exit(2))' || exit 2
# PARAPH_TEST_CONCURRENCY: files run at once (2: the tests are CPU-bound on a 2-core machine).
# The packages the sources import, bundled for the test processes (scripts/source-dependencies.js); without
# the bundle they load from node_modules, more slowly.
node scripts/source-dependencies.js || echo "scripts/test.sh: the packages could not be bundled; the tests load them from node_modules" >&2
exec node --import "$PWD/src/platform/source-imports.ts" --test --test-reporter="$reporter" --test-concurrency="${PARAPH_TEST_CONCURRENCY:-2}" "${files[@]}"
