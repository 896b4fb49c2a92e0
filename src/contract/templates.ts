import Type, { type Static } from 'typebox';
import { DateTime, Uuid } from './common.js';
import { FieldInput } from './signature-requests.js';
import { MAX_FIELDS, MAX_PDF_MIB, MAX_SIGNERS, MAX_TEMPLATE_NAME } from '../domain/limits.js';

/** The template resources of the API description: the Template shape, its list and its create call. */

const closed = { additionalProperties: false } as const;

export const Template = Type.Object(
  {
    id: Uuid,
    name: Type.String({ maxLength: MAX_TEMPLATE_NAME }),
    original_filename: Type.String(),
    fields: Type.Array(FieldInput),
    field_count: Type.Integer({ minimum: 1 }),
    signer_count: Type.Integer({
      minimum: 1,
      maximum: MAX_SIGNERS,
      description: 'number of signer references (roles) prepared in the template',
    }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  {
    ...closed,
    title: 'Template',
    description: 'a reusable document; each distinct `signer_reference` of its fields is a template role',
  },
);
export type Template = Static<typeof Template>;

/** GET /templates: the templates of the key owner's workspace. */
export const TemplateList = Type.Object({ data: Type.Array(Template) }, { ...closed, title: 'TemplateList' });
export type TemplateList = Static<typeof TemplateList>;

/** The `name` part of the create call (plain text). */
export const TemplateName = Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_NAME, description: `the template name, 1 to ${MAX_TEMPLATE_NAME} characters` });
export type TemplateName = Static<typeof TemplateName>;

/** The decoded `fields` part of the create call. */
export const TemplateFieldsJson = Type.Array(FieldInput, {
  title: 'TemplateFieldsJson',
  minItems: 1,
  maxItems: MAX_FIELDS,
  description: 'the fields of the template, 1 to 100 FieldInput; each distinct signer_reference is a role',
});
export type TemplateFieldsJson = Static<typeof TemplateFieldsJson>;

/** The multipart body of POST /templates, as the OpenAPI document describes it: all parts required, no others. */
export const TemplateCreateMultipart = Type.Object(
  {
    document: Type.String({
      format: 'binary',
      contentMediaType: 'application/pdf',
      description: `the PDF, at most ${MAX_PDF_MIB} MiB, with a .pdf filename`,
    }),
    name: TemplateName,
    fields: Type.String({
      contentMediaType: 'application/json',
      contentSchema: TemplateFieldsJson,
      description:
        'a string holding a JSON-encoded array of 1 to 100 FieldInput objects (the TemplateFieldsJson schema), ' +
        'e.g. `[{"signer_reference":"client","type":"signature","page":1,"x":72,"y":700,"width":180,"height":40}]`',
    }),
  },
  { ...closed, required: ['document', 'name', 'fields'] },
);
