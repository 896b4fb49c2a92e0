#!/usr/bin/env bash
# The test run of `npm test` (after build and typecheck): every test/**/*.test.ts, or the files given
# (`npm test -- test/e2e/readme.test.ts`), two files at a time, each in its own process.
# Output: one line per file and the failures in full (scripts/test-reporter.mjs); node's own
# reporters on demand: PARAPH_TEST_REPORTER=spec npm test, or =tap.
set -euo pipefail
cd "$(dirname "$0")/.."
reporter="${PARAPH_TEST_REPORTER:-./scripts/test-reporter.mjs}"
if [ "$#" -gt 0 ]; then files=("$@"); else mapfile -t files < <(find test -name '*.test.ts' | sort); fi
exec node --import tsx --test --test-reporter="$reporter" --test-concurrency=2 "${files[@]}"
