import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Serialize = (doc: unknown) => string;

/**
 * Serializers compiled in this process, by response schema: the schemas are the route modules' own
 * objects, so a second server started in the same process (the programmatic API, a test file's servers)
 * reuses what the first compiled. Every paraph app is built with the same options and no shared schemas,
 * so a schema's serializer is the same in each of them.
 */
const compiledBySchema = new WeakMap<object, Serialize>();

/**
 * fastify's own response serializers (fast-json-stringify), each compiled at the first answer that
 * needs it instead of at start-up: most of a server's start went into compiling every route's
 * response schemas, most of which a short test run never uses.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: Serialize | undefined;
    const schema = route.schema as object;
    return (doc: unknown) => {
      if (!serialize) {
        serialize = compiledBySchema.get(schema);
        if (!serialize) {
          serialize = compile(route) as Serialize;
          compiledBySchema.set(schema, serialize);
        }
      }
      return serialize(doc);
    };
  };
};
