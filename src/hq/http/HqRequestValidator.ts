import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { ApiError } from '../../errors/ApiError.js';
import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { escapePointerToken, isDisplaySafeName } from '../../domain/validation/jsonPointer.js';
import { bodySchemas, querySchemas, type BodyName, type BodyTypes, type QueryName, type QueryTypes } from './hqSchemas.js';

/**
 * Checks HQ query strings and bodies against `hqSchemas`, every schema compiled once (build one
 * per process). Problems become 400 INVALID_QUERY / INVALID_PAYLOAD with one detail per parameter
 * or body location; messages come from the schemas, never from what was sent.
 */
export class HqRequestValidator {
  private readonly queries: ReadonlyMap<QueryName, ValidateFunction>;
  private readonly bodies: ReadonlyMap<BodyName, ValidateFunction>;

  constructor() {
    // verbose: an error carries the schema that failed, whose description is the message.
    // Query values arrive as strings: coercion turns `limit` and `overdue` into their types.
    const queryAjv = new Ajv2020({ allErrors: true, strict: true, messages: false, verbose: true, coerceTypes: true, useDefaults: true });
    const bodyAjv = new Ajv2020({ allErrors: true, strict: true, messages: false, verbose: true });
    addFormats(queryAjv, ['date']);
    this.queries = new Map(Object.entries(querySchemas).map(([name, schema]) => [name as QueryName, queryAjv.compile(schema)]));
    this.bodies = new Map(Object.entries(bodySchemas).map(([name, schema]) => [name as BodyName, bodyAjv.compile(schema)]));
  }

  /** The query string as the route's typed parameters; 400 INVALID_QUERY when it does not conform. */
  query<N extends QueryName>(name: N, params: URLSearchParams): QueryTypes[N] {
    const values: Record<string, string> = {};
    const repeated: ProblemDetail[] = [];
    for (const [key, value] of params) {
      if (key in values) repeated.push(named('', key, 'must be given once', 'holds a parameter given twice'));
      values[key] = value;
    }
    const validate = this.queries.get(name);
    if (!validate) throw new Error(`No query schema ${name}`);
    const problems = validate(values) ? [] : toProblems(validate.errors ?? [], 'is not a parameter of this route');
    const all = [...repeated, ...problems];
    if (all.length > 0) throw new ApiError('INVALID_QUERY', undefined, all);
    return values as unknown as QueryTypes[N];
  }

  /** A parsed body as the action's typed input; 400 INVALID_PAYLOAD when it does not conform. */
  body<N extends BodyName>(name: N, body: unknown): BodyTypes[N] {
    const validate = this.bodies.get(name);
    if (!validate) throw new Error(`No body schema ${name}`);
    if (validate(body)) return body as BodyTypes[N];
    throw new ApiError('INVALID_PAYLOAD', undefined, toProblems(validate.errors ?? [], 'is not a field of this request'));
  }
}

/**
 * A problem at a property whose name came from the request: the name is shown only when it is
 * short and harmless (the partner API's rule), so no path carries arbitrary submitted text.
 */
function named(at: string, name: string, message: string, unnamedMessage: string): ProblemDetail {
  return isDisplaySafeName(name) ? { path: `${at}/${escapePointerToken(name)}`, message } : { path: at || '/', message: unnamedMessage };
}

/** One problem per location, the first reported there. */
function toProblems(errors: readonly ErrorObject[], unknownMessage: string): ProblemDetail[] {
  const problems = new Map<string, string>();
  for (const error of errors) {
    // Instance paths here only name schema properties and array indexes, never submitted keys.
    const at = error.instancePath;
    let problem: ProblemDetail;
    if (error.keyword === 'required') {
      problem = {
        path: `${at}/${escapePointerToken((error.params as { missingProperty: string }).missingProperty)}`,
        message: 'is required',
      };
    } else if (error.keyword === 'additionalProperties') {
      const name = (error.params as { additionalProperty: string }).additionalProperty;
      problem = named(at, name, unknownMessage, 'holds a name that cannot be shown and is not accepted here');
    } else {
      const description = (error.parentSchema as { description?: unknown } | undefined)?.description;
      problem = { path: at || '/', message: typeof description === 'string' ? description : 'is not valid here' };
    }
    if (!problems.has(problem.path)) problems.set(problem.path, problem.message);
  }
  return [...problems].map(([path, message]) => ({ path, message }));
}
