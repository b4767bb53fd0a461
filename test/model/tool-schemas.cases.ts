// Input schemas an MCP server may send (test/model/tool-schemas.test.ts sends each, beside every
// built-in tool, through each provider package to a server on 127.0.0.1 and checks what arrives
// against the provider's documented subset: test/helpers/schema-subsets.ts). `gemini`: text the
// Gemini declaration must hold (a constraint moved into a description) or must not (`absent`).
// One line a case.

export interface HostileSchema {
  name: string;
  schema: Record<string, unknown>;
  /** Substrings of the JSON sent to Gemini. */
  gemini?: { holds?: string[]; absent?: string[] };
  /** Substrings no provider is sent. */
  nowhere?: string[];
}

const HUGE = Array.from({ length: 5000 }, (_, i) => `value-${i}`);

export const HOSTILE_SCHEMAS: HostileSchema[] = [
  {
    name: 'ref_defs',
    schema: {
      type: 'object',
      properties: { target: { $ref: '#/$defs/Target' } },
      required: ['target'],
      $defs: { Target: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] } },
    },
    gemini: { holds: ['at most 64 characters', '"required":["name"]'], absent: ['$ref', '$defs'] },
  },
  {
    name: 'ref_definitions',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pod: { $ref: '#/definitions/Pod', description: 'the pod' } },
      definitions: { Pod: { type: 'string', pattern: '^[a-z0-9-]+$' } },
    },
    gemini: { holds: ['the pod (matching /^[a-z0-9-]+$/)'], absent: ['$ref', 'definitions', 'pattern'] },
    nowhere: ['$schema'],
  },
  {
    name: 'one_of',
    schema: {
      type: 'object',
      properties: { selector: { oneOf: [{ type: 'string' }, { type: 'object', properties: { label: { type: 'string' } } }] } },
    },
    gemini: { holds: ['"anyOf"'], absent: ['oneOf'] },
  },
  {
    name: 'record_with_key_rules',
    schema: {
      type: 'object',
      properties: {
        labels: {
          type: 'object',
          additionalProperties: { type: 'string', maxLength: 63 },
          propertyNames: { pattern: '^[a-z]+$', maxLength: 63 },
        },
      },
    },
    gemini: { holds: ['keys of at most 63 characters', 'keys matching /^[a-z]+$/'], absent: ['propertyNames'] },
  },
  {
    name: 'recursive_defs',
    schema: {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      required: ['tree'],
      $defs: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
          required: ['name', 'children'],
        },
      },
    },
    gemini: { holds: ['the same shape as its enclosing Node'], absent: ['$ref'] },
  },
  {
    name: 'recursive_root',
    schema: { type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#' } } },
    gemini: { holds: ['the same shape as its enclosing schema'], absent: ['$ref'] },
  },
  {
    name: 'huge_enum',
    schema: { type: 'object', properties: { region: { type: 'string', enum: HUGE } }, required: ['region'] },
    gemini: { holds: ['one of 5000 values, e.g. \\"value-0\\"'] },
    nowhere: ['value-4999'],
  },
  {
    name: 'root_all_of',
    schema: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'integer', exclusiveMinimum: 0 } } },
      ],
    },
    gemini: { holds: ['"minimum":1', '"required":["a"]'], absent: ['allOf', 'exclusiveMinimum'] },
  },
  {
    name: 'root_any_of',
    schema: {
      anyOf: [
        { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
        { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      ],
    },
    gemini: { holds: ['one of 2 forms'] },
  },
  {
    name: 'type_lists_and_nullable',
    schema: {
      type: 'object',
      properties: { limit: { type: ['integer', 'null'], minimum: 1 }, note: { type: 'string', nullable: true, maxLength: 10 } },
    },
    gemini: { holds: ['"type":"null"', 'at most 10 characters'], absent: ['nullable'] },
  },
  {
    name: 'const_and_mixed_enums',
    schema: {
      type: 'object',
      properties: {
        kind: { const: 'pod' },
        flag: { enum: [true, false, null] },
        mode: { type: 'number', exclusiveMaximum: 1.5, multipleOf: 0.5 },
      },
    },
    gemini: {
      holds: ['"enum":["pod"]', 'one of true, false, null', 'less than 1.5', 'a multiple of 0.5'],
      absent: ['const', 'exclusiveMaximum', 'multipleOf'],
    },
  },
  {
    name: 'conditionals_and_vendor_keys',
    schema: {
      type: 'object',
      'x-vendor': { a: 1 },
      $comment: 'internal',
      properties: {
        url: { type: 'string', format: 'uri', default: 'https://example.com', examples: ['https://a'] },
        tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, minItems: 1 },
      },
      not: { required: ['x'] },
      if: { properties: { url: { const: '' } } },
      then: { required: ['tags'] },
      dependentRequired: { url: ['tags'] },
    },
    gemini: {
      holds: ['"format":"uri"', 'default \\"https://example.com\\"', 'no duplicates', '"minItems":1'],
      absent: ['x-vendor', '$comment', 'examples', 'uniqueItems', 'dependentRequired', '"not"', '"if"'],
    },
  },
  {
    name: 'draft7_tuple',
    schema: {
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } },
    },
    gemini: { holds: ['"prefixItems"'] },
  },
  {
    name: 'no_root_type',
    schema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: { q: { type: 'string', minLength: 3 } },
      patternProperties: { '^x-': { type: 'string' } },
    },
    gemini: { holds: ['at least 3 characters', 'keys matching /^x-/'], absent: ['patternProperties'] },
    nowhere: ['$schema'],
  },
  {
    name: 'dangling_ref',
    schema: { type: 'object', properties: { thing: { $ref: '#/$defs/Missing' } } },
    gemini: { holds: ['its schema could not be resolved'], absent: ['$ref'] },
  },
];
