import type { CompiledQuery, Kysely } from 'kysely';
import type { DatabaseSchema } from './schema/index.js';

/** Anything kysely can compile to SQL and parameters. */
export interface Compilable<O> {
  compile(): CompiledQuery<O>;
}

/**
 * A query built with kysely once, then run many times with new arguments: the hot paths (API key,
 * request by id, its signers, fields and artifacts) skip building and compiling on every call.
 * `build` must use each argument as a plain value (a `where` operand, a `set` value, a limit), so
 * that each one becomes a bound parameter: the query's shape may not depend on the arguments.
 */
export interface PreparedQuery<A extends readonly unknown[], O> {
  readonly build: (q: Kysely<DatabaseSchema>, ...args: A) => Compilable<O>;
}

export function preparedQuery<A extends readonly unknown[], O>(build: (q: Kysely<DatabaseSchema>, ...args: A) => Compilable<O>): PreparedQuery<A, O> {
  return { build };
}

/** Where each bound parameter of the compiled SQL comes from: an argument, or a constant of the query. */
export type ParameterSource = { arg: number } | { value: unknown };

export interface CompiledTemplate {
  sql: string;
  sources: ParameterSource[];
}

/**
 * Compiles a prepared query with a unique stand-in for each argument, then records which bound
 * parameter is which argument. An argument that does not come out as a parameter (used in a way
 * that shapes the SQL) is a programming error, reported here on first use.
 */
export function compileTemplate<A extends readonly unknown[], O>(q: Kysely<DatabaseSchema>, query: PreparedQuery<A, O>): CompiledTemplate {
  const arity = query.build.length - 1;
  const standIns = Array.from({ length: arity }, (_, i) => `\u0000paraph-argument-${i}\u0000`);
  const compiled = query.build(q, ...(standIns as unknown as A)).compile();
  const used = new Set<number>();
  const sources = compiled.parameters.map((parameter): ParameterSource => {
    const arg = typeof parameter === 'string' ? standIns.indexOf(parameter) : -1;
    if (arg === -1) return { value: parameter };
    used.add(arg);
    return { arg };
  });
  if (used.size !== arity) throw new Error(`a prepared query must bind each of its ${arity} arguments as a parameter: ${compiled.sql}`);
  return { sql: compiled.sql, sources };
}

/** The bound parameters of one call. */
export function bindArguments(sources: readonly ParameterSource[], args: readonly unknown[]): unknown[] {
  const bound = new Array<unknown>(sources.length);
  for (let i = 0; i < sources.length; i += 1) {
    const source = sources[i] as ParameterSource;
    bound[i] = 'arg' in source ? args[source.arg] : source.value;
  }
  return bound;
}
