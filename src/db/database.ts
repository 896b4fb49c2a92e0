import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Insertable } from 'kysely';
import { migrations } from './migrations/index.js';
import { bindArguments, compileTemplate, type Compilable, type CompiledTemplate, type PreparedQuery } from './prepared-query.js';
import type { DatabaseSchema } from './schema/index.js';

/** A remembered value is dropped once this many are held (unknown API keys must not grow it for ever). */
const MEMO_LIMIT = 10_000;

/**
 * The SQLite database. Kysely builds typed queries; better-sqlite3 runs them synchronously, so a
 * transaction is one synchronous function that no other request can interleave with, and every
 * writing transaction starts with BEGIN IMMEDIATE (it waits for the write lock instead of failing).
 */
export interface Db {
  readonly q: Kysely<DatabaseSchema>;
  all<O>(query: Compilable<O>): O[];
  all<A extends readonly unknown[], O>(query: PreparedQuery<A, O>, ...args: A): O[];
  first<O>(query: Compilable<O>): O | undefined;
  first<A extends readonly unknown[], O>(query: PreparedQuery<A, O>, ...args: A): O | undefined;
  run(query: Compilable<unknown>): { changes: number };
  run<A extends readonly unknown[]>(query: PreparedQuery<A, unknown>, ...args: A): { changes: number };
  /** Inserts one row (columns whose value is undefined are left out), without building a query each time. */
  insert<T extends keyof DatabaseSchema & string>(table: T, row: Insertable<DatabaseSchema[T]>): void;
  /**
   * Runs `fn` in one transaction. `fn` is synchronous: a function returning a promise is a type error
   * (its awaited part would run after the commit, outside the transaction).
   */
  transaction<T>(fn: () => NotPromise<T>): T;
  /**
   * A value read from the database, remembered until the database changes: a write through this
   * connection, or a commit by any other one (a CLI process on the same data directory), seen
   * through SQLite's `PRAGMA data_version` at the next call.
   */
  memo<T>(key: string, read: () => T): T;
  /**
   * Looks for other connections' commits now. Called as each HTTP request arrives, so every memo the
   * request reads is at least as new as the request; other work looks once per event-loop turn.
   */
  observeChanges(): void;
  close(): void;
}

/** Any value but a promise: what a transaction's function may answer. */
export type NotPromise<T> = T extends PromiseLike<unknown> ? never : T;

export async function openDatabase(file: string): Promise<Db> {
  keepPrivate(file);
  const sqlite = new BetterSqlite3(file);
  try {
    refuseForeign(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');

  const q = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(sqlite, q);

  const statements = new Map<string, BetterSqlite3.Statement>();
  const statementOf = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = sqlite.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const templates = new WeakMap<PreparedQuery<never, unknown>, { statement: BetterSqlite3.Statement; template: CompiledTemplate }>();
  // Writes through this connection: `PRAGMA data_version` counts only other connections' commits.
  let ownWrites = 0;
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  const memos = new Map<string, unknown>();
  let memoWrites = -1;
  let memoDataVersion = -1;
  // True from a look at `data_version` to the end of the event-loop turn it was made in.
  let lookedThisTurn = false;
  const endTurn = () => {
    lookedThisTurn = false;
  };
  const observeChanges = () => {
    const version = dataVersion.get() as number;
    if (version !== memoDataVersion) {
      memos.clear();
      memoDataVersion = version;
    }
    if (!lookedThisTurn) {
      lookedThisTurn = true;
      setImmediate(endTurn);
    }
  };

  const bind = (query: Compilable<unknown> | PreparedQuery<readonly unknown[], unknown>, args: readonly unknown[]) => {
    let statement: BetterSqlite3.Statement;
    let parameters: unknown[];
    if ('build' in query) {
      let prepared = templates.get(query as PreparedQuery<never, unknown>);
      if (!prepared) {
        const template = compileTemplate(q, query);
        prepared = { statement: statementOf(template.sql), template };
        templates.set(query as PreparedQuery<never, unknown>, prepared);
      }
      statement = prepared.statement;
      parameters = bindArguments(prepared.template.sources, args);
    } else {
      const compiled = query.compile();
      statement = statementOf(compiled.sql);
      parameters = compiled.parameters as unknown[];
    }
    if (!statement.readonly) ownWrites += 1;
    return { statement, parameters };
  };

  return {
    q,
    all(query: Compilable<unknown> | PreparedQuery<readonly unknown[], unknown>, ...args: unknown[]) {
      const { statement, parameters } = bind(query, args);
      return statement.all(...parameters);
    },
    first(query: Compilable<unknown> | PreparedQuery<readonly unknown[], unknown>, ...args: unknown[]) {
      const { statement, parameters } = bind(query, args);
      return statement.get(...parameters);
    },
    run(query: Compilable<unknown> | PreparedQuery<readonly unknown[], unknown>, ...args: unknown[]) {
      const { statement, parameters } = bind(query, args);
      return { changes: statement.run(...parameters).changes };
    },
    insert(table: string, row: Record<string, unknown>) {
      const columns = Object.keys(row).filter((column) => row[column] !== undefined);
      const sql = `insert into ${quoteName(table)} (${columns.map(quoteName).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
      statementOf(sql).run(...columns.map((column) => row[column]));
      ownWrites += 1;
    },
    transaction<T>(fn: () => NotPromise<T>): T {
      try {
        return sqlite.transaction(fn).immediate();
      } finally {
        ownWrites += 1;
      }
    },
    memo<T>(key: string, read: () => T): T {
      if (!lookedThisTurn) observeChanges();
      if (ownWrites !== memoWrites || memos.size >= MEMO_LIMIT) {
        memos.clear();
        memoWrites = ownWrites;
      }
      if (memos.has(key)) return memos.get(key) as T;
      const value = read();
      // A read that wrote (none should) makes its own result stale at once.
      if (ownWrites === memoWrites) memos.set(key, value);
      return value;
    },
    observeChanges,
    close() {
      statements.clear();
      sqlite.close();
    },
  } as Db;
}

/** A table or column name as SQLite quotes it (names come from the schema types, never from input). */
function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Runs pending migrations under the write lock, so a CLI and a server starting together migrate once. */
async function migrate(sqlite: BetterSqlite3.Database, q: Kysely<DatabaseSchema>): Promise<void> {
  const migrator = new Migrator({
    db: q,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'paraph_migrations',
    migrationLockTableName: 'paraph_migrations_lock',
    disableTransactions: true,
  });
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    const { error } = await migrator.migrateToLatest();
    if (error) throw newerDatabase(error, sqlite.name) ?? error;
    sqlite.exec('COMMIT');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Another program's SQLite database under paraph's file name: read before anything is written to it (the
 * journal mode, paraph's tables), and refused, left as it was. An empty file is a new database.
 */
function refuseForeign(sqlite: BetterSqlite3.Database): void {
  const tables = sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").pluck().all();
  if (tables.length > 0 && !tables.includes('paraph_migrations')) {
    throw Object.assign(new Error(`${sqlite.name} is another program's SQLite database`), { code: FOREIGN_DATABASE });
  }
}

/** The code of the error refuseForeign throws (contentFailure says it as a data directory's problem). */
export const FOREIGN_DATABASE = 'PARAPH_FOREIGN_DATABASE';

/**
 * A database a newer paraph migrated holds migrations this version does not know (the migrator calls it
 * "corrupted"): said as what it is, and what to do. A migration numbered within this version's own was made by a
 * development build of paraph whose migrations were numbered otherwise, not by a newer one.
 */
function newerDatabase(error: unknown, file: string): Error | undefined {
  const unknown = /previously executed migration (\S+) is missing/.exec(error instanceof Error ? error.message : '')?.[1];
  if (unknown === undefined) return undefined;
  const latest = Math.max(...Object.keys(migrations).map((name) => Number.parseInt(name, 10)));
  if (Number.parseInt(unknown, 10) <= latest) {
    return new Error(
      `${file} was made by a development build of paraph whose migrations were numbered otherwise (its migration ${unknown} is not this version's): ` +
        'this version cannot take it over; run the build that made it, or give this one another data directory (--data-dir)',
    );
  }
  return new Error(
    `${file} was last used by a newer paraph (its migration ${unknown} is unknown to this version): ` +
      'run that newer version on it (npx paraph@latest), or give this one another data directory (--data-dir)',
  );
}

/**
 * The database holds caught mail with signing links and codes: it is made 0600 before SQLite opens
 * it (SQLite gives the -wal and -shm files the database file's mode), and an older one readable by
 * others is made 0600 too, whatever the data directory's mode.
 */
function keepPrivate(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      if (fs.existsSync(name) && (fs.statSync(name).mode & 0o077) !== 0) fs.chmodSync(name, 0o600);
    }
  } catch {
    // Not ours to fix (a read-only copy, another owner): SQLite's own open says what is wrong.
  }
}
