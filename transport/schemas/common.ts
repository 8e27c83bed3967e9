// Building blocks of the response schemas (JSON Schema 2020-12 subset fast-json-stringify compiles).

export type Schema = Record<string, unknown>;

export const str: Schema = { type: 'string' };
export const int: Schema = { type: 'integer' };
export const num: Schema = { type: 'number' };
export const nullableNum: Schema = { type: ['number', 'null'] };
export const nullableStr: Schema = { type: ['string', 'null'] };
export const nullableInt: Schema = { type: ['integer', 'null'] };
export const date: Schema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
export const nullableDate: Schema = { type: ['string', 'null'], format: 'date', description: 'YYYY-MM-DD' };

/** An object whose listed properties are all required and nothing else is allowed. */
export function object(properties: Record<string, Schema>, optional: string[] = [], description?: string): Schema {
  const schema: Schema = {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
  if (description) schema.description = description;
  return schema;
}

export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
export const mapOf = (values: Schema): Schema => ({ type: 'object', additionalProperties: values });

/** A problem's `instance`: the request id of the answer (X-Request-Id). */
export const instanceField: Schema = { type: 'string', description: 'The request id (X-Request-Id) of this answer.' };
