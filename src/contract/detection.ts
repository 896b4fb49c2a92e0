import Type, { type Static } from 'typebox';
import { FieldType } from './signature-requests.js';

/** The result of POST /signature-requests/{id}/detect-fields. Geometry is in PDF points, origin top-left. */

const closed = { additionalProperties: false } as const;

export const DetectionReason = Type.Enum(['acroform', 'label_with_geometry', 'label_with_whitespace']);
export type DetectionReason = Static<typeof DetectionReason>;

export const DetectionSuggestion = Type.Object(
  {
    id: Type.String(),
    type: FieldType,
    page: Type.Integer({ minimum: 1 }),
    x: Type.Number({ minimum: 0 }),
    y: Type.Number({ minimum: 0 }),
    width: Type.Number({ exclusiveMinimum: 0 }),
    height: Type.Number({ exclusiveMinimum: 0 }),
    confidence: Type.Number({ minimum: 0.65, maximum: 1 }),
    roleHint: Type.Optional(Type.String()),
    reason: DetectionReason,
    fieldKey: Type.Optional(Type.String()),
  },
  { ...closed, title: 'DetectionSuggestion' },
);
export type DetectionSuggestion = Static<typeof DetectionSuggestion>;

export const DetectionPage = Type.Object(
  { page: Type.Integer(), width: Type.Number(), height: Type.Number(), rotation: Type.Integer() },
  { ...closed, title: 'DetectionPage' },
);
export type DetectionPage = Static<typeof DetectionPage>;

export const DetectionStats = Type.Object(
  {
    pageCount: Type.Integer(),
    totalSuggestions: Type.Integer(),
    nativeTextPages: Type.Optional(Type.Integer()),
    ocrPages: Type.Optional(Type.Integer()),
    scannedPages: Type.Optional(Type.Integer()),
    extractionMs: Type.Optional(Type.Number()),
    detectionMs: Type.Optional(Type.Number()),
  },
  closed,
);
export type DetectionStats = Static<typeof DetectionStats>;

export const DetectionResult = Type.Object(
  {
    suggestions: Type.Array(DetectionSuggestion),
    pages: Type.Array(DetectionPage),
    stats: DetectionStats,
    ocrStatus: Type.Enum(['disabled', 'enabled']),
    /** paraph's addition: when `ocrStatus` is `disabled`, why, and how to add OCR. */
    ocrMessage: Type.Optional(Type.String({ description: 'when ocrStatus is disabled: why scanned pages are not read, and how to add OCR' })),
  },
  { ...closed, title: 'DetectionResult' },
);
export type DetectionResult = Static<typeof DetectionResult>;
