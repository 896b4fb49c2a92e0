import BetterSqlite3 from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from './migrations/index.js';
import { bindArguments, compileTemplate } from './prepared-query.js';
/** A remembered value is dropped once this many are held (unknown API keys must not grow it for ever). */
const MEMO_LIMIT = 10_000;
export async function openDatabase(file) {
    const sqlite = new BetterSqlite3(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 10000');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = NORMAL');
    const q = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
    await migrate(sqlite, q);
    const statements = new Map();
    const statementOf = (sql) => {
        let statement = statements.get(sql);
        if (!statement) {
            statement = sqlite.prepare(sql);
            statements.set(sql, statement);
        }
        return statement;
    };
    const templates = new WeakMap();
    // Writes through this connection: `PRAGMA data_version` counts only other connections' commits.
    let ownWrites = 0;
    const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
    const memos = new Map();
    let memoWrites = -1;
    let memoDataVersion = -1;
    // True from a look at `data_version` to the end of the event-loop turn it was made in.
    let lookedThisTurn = false;
    const endTurn = () => {
        lookedThisTurn = false;
    };
    const observeChanges = () => {
        const version = dataVersion.get();
        if (version !== memoDataVersion) {
            memos.clear();
            memoDataVersion = version;
        }
        if (!lookedThisTurn) {
            lookedThisTurn = true;
            setImmediate(endTurn);
        }
    };
    const bind = (query, args) => {
        let statement;
        let parameters;
        if ('build' in query) {
            let prepared = templates.get(query);
            if (!prepared) {
                const template = compileTemplate(q, query);
                prepared = { statement: statementOf(template.sql), template };
                templates.set(query, prepared);
            }
            statement = prepared.statement;
            parameters = bindArguments(prepared.template.sources, args);
        }
        else {
            const compiled = query.compile();
            statement = statementOf(compiled.sql);
            parameters = compiled.parameters;
        }
        if (!statement.readonly)
            ownWrites += 1;
        return { statement, parameters };
    };
    return {
        q,
        all(query, ...args) {
            const { statement, parameters } = bind(query, args);
            return statement.all(...parameters);
        },
        first(query, ...args) {
            const { statement, parameters } = bind(query, args);
            return statement.get(...parameters);
        },
        run(query, ...args) {
            const { statement, parameters } = bind(query, args);
            return { changes: statement.run(...parameters).changes };
        },
        insert(table, row) {
            const columns = Object.keys(row).filter((column) => row[column] !== undefined);
            const sql = `insert into ${quoteName(table)} (${columns.map(quoteName).join(', ')}) values (${columns.map(() => '?').join(', ')})`;
            statementOf(sql).run(...columns.map((column) => row[column]));
            ownWrites += 1;
        },
        transaction(fn) {
            try {
                return sqlite.transaction(fn).immediate();
            }
            finally {
                ownWrites += 1;
            }
        },
        memo(key, read) {
            if (!lookedThisTurn)
                observeChanges();
            if (ownWrites !== memoWrites || memos.size >= MEMO_LIMIT) {
                memos.clear();
                memoWrites = ownWrites;
            }
            if (memos.has(key))
                return memos.get(key);
            const value = read();
            // A read that wrote (none should) makes its own result stale at once.
            if (ownWrites === memoWrites)
                memos.set(key, value);
            return value;
        },
        observeChanges,
        close() {
            statements.clear();
            sqlite.close();
        },
    };
}
/** A table or column name as SQLite quotes it (names come from the schema types, never from input). */
function quoteName(name) {
    return `"${name.replaceAll('"', '""')}"`;
}
/** Runs pending migrations under the write lock, so a CLI and a server starting together migrate once. */
async function migrate(sqlite, q) {
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
        if (error)
            throw error;
        sqlite.exec('COMMIT');
    }
    catch (error) {
        if (sqlite.inTransaction)
            sqlite.exec('ROLLBACK');
        throw error;
    }
}
//# sourceMappingURL=database.js.map