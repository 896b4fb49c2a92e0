import Type from 'typebox';
import type { Context } from '../../context.js';
import { archiveTemplate } from '../../features/templates/archive-template.js';
import { createTemplate } from '../../features/templates/create-template.js';
import { listTemplates } from '../../features/templates/list-templates.js';
import type { ApiScope } from '../api-scope.js';
import { principalOf } from '../hooks/auth.js';
import { checkedUpload, readPdfMultipart, uploadFingerprint } from '../multipart.js';
import { IdParams } from '../../contract/common.js';
import type { FieldInput } from '../../contract/signature-requests.js';
import { Template, TemplateCreateMultipart, TemplateFieldsJson, TemplateList, TemplateName } from '../../contract/templates.js';
import { errorResponses } from './responses.js';

/** Templates: a PDF with its fields and roles, uploaded once and used by creates and bulk sends. */
export function registerTemplates({ api, keyed }: ApiScope, ctx: Context): void {
  keyed.post(
    '/templates',
    {
      config: {
        auth: true,
        idempotent: true,
        summary: 'Create a template from a PDF, a name and its fields (each signer_reference is a role)',
        multipartBody: TemplateCreateMultipart,
        // Read before the idempotency check, which fingerprints the parts (boundaries differ between retries).
        readBody: async (request) => {
          request.upload = await readPdfMultipart(request, { name: TemplateName, fields: TemplateFieldsJson }, { textParts: ['name'] });
        },
        fingerprint: (request) => uploadFingerprint(request.upload),
      },
      schema: { response: { 201: Template, ...errorResponses(400, 401, 422, 429, 500, 503) } },
    },
    async (request, reply) => {
      const { document, parts } = checkedUpload(request.upload);
      const template = await createTemplate(ctx, {
        principal: principalOf(request),
        document,
        name: parts.name as string,
        fields: parts.fields as FieldInput[],
      });
      return reply.code(201).send(template);
    },
  );

  api.get(
    '/templates',
    {
      config: { auth: true, summary: "The account's templates, newest first (archived ones are left out)" },
      schema: { response: { 200: TemplateList, ...errorResponses(401, 429, 500) } },
    },
    async (request) => listTemplates(ctx, principalOf(request).accountId),
  );

  keyed.delete(
    '/templates/:id',
    {
      config: { auth: true, idempotent: true, summary: 'Archive a template: it can no longer be used; requests made from it are unaffected' },
      schema: { params: IdParams, response: { 204: Type.Null({ description: 'archived; no body' }), ...errorResponses(401, 404, 422, 429) } },
    },
    async (request, reply) => {
      await archiveTemplate(ctx, { principal: principalOf(request), id: request.params.id });
      // A payload (sent as no body), so that an Idempotency-Key stores the answer and replays it.
      return reply.code(204).send(null);
    },
  );
}
