// The suite needs Chromium and poppler-utils. On a developer's machine a test needing a missing one
// is skipped, and the summary lists it with the package to install; in CI nothing may be skipped for
// that reason, so this test fails there naming what to install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findProgram, IN_CI, SYSTEM_TOOLS } from '../helpers/system-tools.js';

test('the system tools the suite drives are installed (required in CI)', (t) => {
  const missing = SYSTEM_TOOLS.filter((tool) => findProgram(tool.program) === null);
  const message = missing.map((tool) => `${tool.program}, for ${tool.usedFor}: apt-get install ${tool.aptPackage}`).join('; ');
  if (missing.length > 0 && !IN_CI) {
    t.skip(`missing: ${message}`);
    return;
  }
  assert.deepEqual(missing, [], `missing in CI: ${message}`);
});
