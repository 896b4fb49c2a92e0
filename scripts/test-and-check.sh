#!/usr/bin/env bash
# `npm test` after the build: the type-check and the lint run beside the test files instead of before
# them (each keeps one core busy for a few seconds to half a minute; the tests keep both busy for
# minutes), and what they print comes after the tests' summary. The exit code is non-zero when the
# tests, the type-check or the lint failed. Arguments go to scripts/test.sh (test files to run).
set -uo pipefail
cd "$(dirname "$0")/.."
checks="$(mktemp -d)"
trap 'rm -rf "$checks"' EXIT
for check in typecheck lint; do
  (npm run --silent "$check" > "$checks/$check.log" 2>&1; echo $? > "$checks/$check.exit") &
done
scripts/test.sh "$@"
failed=$?
wait
for check in typecheck lint; do
  code="$(cat "$checks/$check.exit")"
  if [ "$code" = 0 ]; then
    echo "npm run $check: ok"
  else
    echo "npm run $check: FAILED (exit $code)"
    cat "$checks/$check.log"
    failed=1
  fi
done
exit "$failed"
