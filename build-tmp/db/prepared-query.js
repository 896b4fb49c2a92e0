export function preparedQuery(build) {
    return { build };
}
/**
 * Compiles a prepared query with a unique stand-in for each argument, then records which bound
 * parameter is which argument. An argument that does not come out as a parameter (used in a way
 * that shapes the SQL) is a programming error, reported here on first use.
 */
export function compileTemplate(q, query) {
    const arity = query.build.length - 1;
    const standIns = Array.from({ length: arity }, (_, i) => `\u0000paraph-argument-${i}\u0000`);
    const compiled = query.build(q, ...standIns).compile();
    const used = new Set();
    const sources = compiled.parameters.map((parameter) => {
        const arg = typeof parameter === 'string' ? standIns.indexOf(parameter) : -1;
        if (arg === -1)
            return { value: parameter };
        used.add(arg);
        return { arg };
    });
    if (used.size !== arity)
        throw new Error(`a prepared query must bind each of its ${arity} arguments as a parameter: ${compiled.sql}`);
    return { sql: compiled.sql, sources };
}
/** The bound parameters of one call. */
export function bindArguments(sources, args) {
    const bound = new Array(sources.length);
    for (let i = 0; i < sources.length; i += 1) {
        const source = sources[i];
        bound[i] = 'arg' in source ? args[source.arg] : source.value;
    }
    return bound;
}
//# sourceMappingURL=prepared-query.js.map