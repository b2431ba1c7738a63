import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** Escapes a JSON Pointer token (RFC 6901). */
export function pointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Validates values against schemas inside an OpenAPI 3.1 document, by JSON Pointer into it: the
 * document's schemas are JSON Schema 2020-12, so ajv reads them as they are.
 */
export function specValidator(document: object): (pointer: string) => ValidateFunction {
  // Not strict: the document around the schemas holds OpenAPI keywords ajv does not know.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi.json');
  const cache = new Map<string, ValidateFunction>();
  return (pointer) => {
    let validate = cache.get(pointer);
    if (validate === undefined) {
      validate = ajv.compile({ $ref: `openapi.json#${pointer}` });
      cache.set(pointer, validate);
    }
    return validate;
  };
}
