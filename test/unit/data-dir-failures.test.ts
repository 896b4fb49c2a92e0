// What a data directory's failures say (src/platform/data-dir.ts): a full disk, whether the file system
// or SQLite tells it, and a path a suggested command must quote (a quote in it included).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { contentFailure, DataDirError, prepareDataDir } from '../../src/platform/data-dir.js';

test('a full disk, from the file system or from SQLite, is one message: the disk is full, free some space', () => {
  for (const code of ['ENOSPC', 'EDQUOT', 'SQLITE_FULL']) {
    const failure = contentFailure('/data', Object.assign(new Error('database or disk is full'), { code }));
    assert.ok(failure instanceof DataDirError, code);
    assert.match(failure.message, /^data directory \/data .*cannot be used: the disk is full\. Free some space, or choose another directory/, code);
  }
  const other = new Error('something else');
  assert.equal(contentFailure('/data', other), other);
});

test('the chmod a warning suggests runs in a shell as given, for a path holding a quote and spaces', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paraph-it's a dir "));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.chmodSync(dir, 0o755);
  const warnings: string[] = [];
  prepareDataDir(dir, (message) => warnings.push(message), { create: false });
  const command = /run: (chmod 700 .*)$/.exec(warnings[0] ?? '')?.[1];
  assert.ok(command, warnings.join('\n'));
  assert.equal(spawnSync('sh', ['-c', command]).status, 0);
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
});
