import Type, { type Static } from 'typebox';

/** What `GET /` and `GET /v1` answer: where things are, for someone who only knows the server's address. */

const closed = { additionalProperties: false } as const;

const Link = Type.String({ description: 'a path on this server, or an absolute URL' });

export const ServerIndex = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    version: Type.String({ description: "paraph's version" }),
    environment: Type.Literal('sandbox'),
    authentication: Type.String({ description: 'the header every call under /v1 and /_sandbox sends' }),
    links: Type.Object(
      {
        api: Link,
        openapi: Link,
        docs: Link,
        health: Link,
        dashboard: Type.String({ description: 'the operator dashboard; `paraph dashboard url` shows the link that signs in' }),
        signing_page: Type.String({ description: 'the form of the signing links that activation returns (one secret link per signer)' }),
      },
      closed,
    ),
  },
  { ...closed, title: 'ServerIndex' },
);
export type ServerIndex = Static<typeof ServerIndex>;

export const ApiIndex = Type.Object(
  {
    name: Type.String(),
    api_version: Type.Literal('v1'),
    version: Type.String({ description: "paraph's version" }),
    environment: Type.Literal('sandbox'),
    authentication: Type.String({ description: 'the header every call under /v1 sends' }),
    links: Type.Object(
      {
        openapi: Link,
        docs: Link,
        signature_requests: Link,
        templates: Link,
        bulk_sends: Link,
        webhook_deliveries: Link,
        event_stream: Link,
        health: Link,
      },
      closed,
    ),
  },
  { ...closed, title: 'ApiIndex' },
);
export type ApiIndex = Static<typeof ApiIndex>;
