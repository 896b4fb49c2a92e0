import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type CompiledQuery } from 'kysely';
import { migrations } from './migrations/index.js';
import type { DatabaseSchema } from './schema/index.js';

interface Compilable<O> {
  compile(): CompiledQuery<O>;
}

/**
 * The SQLite database. Kysely builds typed queries; better-sqlite3 runs them synchronously, so a
 * transaction is one synchronous function that no other request can interleave with, and every
 * writing transaction starts with BEGIN IMMEDIATE (it waits for the write lock instead of failing).
 */
export interface Db {
  readonly q: Kysely<DatabaseSchema>;
  all<O>(query: Compilable<O>): O[];
  first<O>(query: Compilable<O>): O | undefined;
  run(query: Compilable<unknown>): { changes: number };
  transaction<T>(fn: () => T): T;
  close(): void;
}

export async function openDatabase(file: string): Promise<Db> {
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 10000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');

  const q = new Kysely<DatabaseSchema>({ dialect: new SqliteDialect({ database: sqlite }) });
  await migrate(sqlite, q);

  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepare = (compiled: CompiledQuery<unknown>) => {
    let statement = statements.get(compiled.sql);
    if (!statement) {
      statement = sqlite.prepare(compiled.sql);
      statements.set(compiled.sql, statement);
    }
    return { statement, parameters: compiled.parameters as unknown[] };
  };

  return {
    q,
    all<O>(query: Compilable<O>): O[] {
      const { statement, parameters } = prepare(query.compile());
      return statement.all(...parameters) as O[];
    },
    first<O>(query: Compilable<O>): O | undefined {
      const { statement, parameters } = prepare(query.compile());
      return statement.get(...parameters) as O | undefined;
    },
    run(query) {
      const { statement, parameters } = prepare(query.compile());
      return { changes: statement.run(...parameters).changes };
    },
    transaction<T>(fn: () => T): T {
      return sqlite.transaction(fn).immediate();
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
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
    if (error) throw error;
    sqlite.exec('COMMIT');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw error;
  }
}
