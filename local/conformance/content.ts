/**
 * Fixed payloads the conformance scenarios look for. The suite only checks shapes (a base64 `data`
 * with a mimeType, an `audio/wav` type, text that contains the template id …), so these are small
 * generated samples of our own: a 1×1 PNG and a four-sample 16-bit mono WAV.
 */
import type { JsonObject } from '../../lambda/mcp/types/index.js';

/** 1×1 RGB PNG. */
export const PNG_1X1_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz38NAAIqAXp4ksuCAAAAAElFTkSuQmCC';

/** 8 kHz mono 16-bit PCM WAV with four samples. */
export const WAV_BASE64 = 'UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAOgDAAAY/A==';

/** Log lines `test_tool_with_logging` emits; the scenario wants at least three. */
export const LOG_LINES = [
  'Tool execution started',
  'Tool processing data',
  'Tool execution completed',
] as const;

/**
 * Input schema of `json_schema_2020_12_tool`. The scenario (SEP-1613, SEP-2106) checks that tools/list
 * returns it verbatim: `$schema`, `$defs` (with `$anchor`), `additionalProperties: false`, composition
 * (`allOf`/`anyOf`) and conditional (`if`/`then`/`else`) keywords.
 */
export const JSON_SCHEMA_2020_12: JsonObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'postalAddress',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};

/** Form the `test_elicitation_sep1034_defaults` tool sends: one default per primitive type (SEP-1034). */
export const DEFAULTS_FORM: JsonObject = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Full name', default: 'John Doe' },
    age: { type: 'integer', description: 'Age in years', default: 30 },
    score: { type: 'number', description: 'Score', default: 95.5 },
    status: {
      type: 'string',
      description: 'Status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verified', default: true },
  },
  required: [],
};

/** Form the `test_elicitation_sep1330_enums` tool sends: the five enum shapes of SEP-1330. */
export const ENUMS_FORM: JsonObject = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Pick one (titled)',
      oneOf: [
        { const: 'value1', title: 'Value one' },
        { const: 'value2', title: 'Value two' },
        { const: 'value3', title: 'Value three' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Pick one (legacy titles)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Opt one', 'Opt two', 'Opt three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Pick several',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Pick several (titled)',
      minItems: 1,
      maxItems: 3,
      items: {
        anyOf: [
          { const: 'value1', title: 'Value one' },
          { const: 'value2', title: 'Value two' },
          { const: 'value3', title: 'Value three' },
        ],
      },
    },
  },
  required: [],
};
