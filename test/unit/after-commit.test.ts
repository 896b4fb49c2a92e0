// ctx.afterCommit (src/platform/after-commit.ts): work runs once the outermost transaction commits,
// never on rollback, at once outside a transaction; and a transaction's function cannot be async.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openDatabase } from '../../src/db/database.js';
import { readSetting, writeSetting } from '../../src/db/settings.js';
import { withAfterCommit } from '../../src/platform/after-commit.js';
import { useTmpDir } from '../helpers/server.js';

async function setUp(t: TestContext) {
  const raw = await openDatabase(path.join(useTmpDir(t), 'paraph.db'));
  t.after(() => raw.close());
  const failures: unknown[] = [];
  const { db, afterCommit } = withAfterCommit(raw, (error) => failures.push(error));
  const log: string[] = [];
  // What each piece of work saw: the value committed at the time it ran.
  const note = (name: string) => () => log.push(`${name}:${readSetting(raw, 'k') ?? '-'}`);
  return { db, afterCommit, log, note, failures };
}

test('after a commit: the work runs once the transaction has committed, in the order asked', async (t) => {
  const { db, afterCommit, log, note } = await setUp(t);
  const answer = db.transaction(() => {
    writeSetting(db, 'k', 'one');
    afterCommit(note('first'));
    afterCommit(note('second'));
    log.push('inside');
    return 42;
  });
  assert.equal(answer, 42);
  assert.deepEqual(log, ['inside', 'first:one', 'second:one']);
});

test('after a rollback: the work never runs, and the error still reaches the caller', async (t) => {
  const { db, afterCommit, log, note } = await setUp(t);
  assert.throws(
    () =>
      db.transaction(() => {
        writeSetting(db, 'k', 'lost');
        afterCommit(note('never'));
        throw new Error('refused');
      }),
    /refused/,
  );
  assert.deepEqual(log, []);
  assert.equal(readSetting(db, 'k'), undefined);
  // The queue is empty again: the next transaction's work runs after its own commit only.
  db.transaction(() => afterCommit(note('next')));
  assert.deepEqual(log, ['next:-']);
});

test('nested transactions: work waits for the outermost commit; a nested rollback drops only its own work', async (t) => {
  const { db, afterCommit, log, note } = await setUp(t);
  db.transaction(() => {
    afterCommit(note('outer'));
    db.transaction(() => {
      writeSetting(db, 'k', 'inner');
      afterCommit(note('inner'));
    });
    assert.deepEqual(log, [], 'nothing runs when the nested transaction ends');
    assert.throws(() =>
      db.transaction(() => {
        afterCommit(note('rolled back'));
        throw new Error('savepoint undone');
      }),
    );
    writeSetting(db, 'k', 'outer');
    afterCommit(note('last'));
  });
  assert.deepEqual(log, ['outer:outer', 'inner:outer', 'last:outer']);

  log.length = 0;
  assert.throws(() =>
    db.transaction(() => {
      db.transaction(() => afterCommit(note('inner of a failed outer')));
      throw new Error('outer undone');
    }),
  );
  assert.deepEqual(log, [], 'a committed nested transaction is undone with its parent, and so is its work');
});

test('outside a transaction: the work runs at once', async (t) => {
  const { afterCommit, log, note } = await setUp(t);
  afterCommit(note('now'));
  assert.deepEqual(log, ['now:-']);
});

test('work that throws is reported, the others still run, and the committed change stands', async (t) => {
  const { db, afterCommit, log, note, failures } = await setUp(t);
  const answer = db.transaction(() => {
    writeSetting(db, 'k', 'kept');
    afterCommit(() => {
      throw new Error('the job could not start');
    });
    afterCommit(note('after'));
    return 'done';
  });
  assert.equal(answer, 'done');
  assert.deepEqual(log, ['after:kept']);
  assert.equal(failures.length, 1);
  assert.match(String(failures[0]), /the job could not start/);
  assert.equal(readSetting(db, 'k'), 'kept');
});

test('a transaction takes a synchronous function only', async (t) => {
  const { db } = await setUp(t);
  // @ts-expect-error an async function would commit before its awaited part runs
  const refused = () => db.transaction(async () => 1);
  // @ts-expect-error nor may a function answer a promise
  const alsoRefused = () => db.transaction(() => Promise.resolve(1));
  // At run time too, nothing is committed half-done: the database refuses the promise.
  assert.throws(refused, /cannot return a promise/);
  assert.throws(alsoRefused, /cannot return a promise/);
  const value: { n: number } = db.transaction(() => ({ n: 1 }));
  assert.deepEqual(value, { n: 1 });
});
