import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
/**
 * fastify's own response serializers (fast-json-stringify), each compiled at the first answer that
 * needs it instead of at start-up: most of a server's start went into compiling every route's
 * response schemas, most of which a short test run never uses.
 */
export const lazySerializers = (externalSchemas, options) => {
    const compile = SerializerSelector()(externalSchemas, options);
    return (route) => {
        let serialize;
        return (doc) => (serialize ??= compile(route))(doc);
    };
};
//# sourceMappingURL=serialization.js.map