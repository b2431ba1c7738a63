import type { HttpFunctionDefinition } from '../functions/FunctionDefinition.js';

type JsonObject = Record<string, unknown>;

/** A function of an API with the path it has in the API's document (below the document's server URL). */
export interface RoutedFunction<F extends HttpFunctionDefinition> {
  readonly fn: F;
  /** Its route as served, for messages. */
  readonly route: string;
  /** `/stores`, relative to the server URL. */
  readonly path: string;
}

/**
 * The `paths` of an API's OpenAPI document: each function's operation, built by `operation` from
 * its description in `operations`, under every method it takes. The function table and the
 * descriptions must name the same functions: throws on a function without a description, and on
 * a description without a function, so neither is left out of the document unnoticed.
 */
export function operationPaths<F extends HttpFunctionDefinition, D>(
  /** The API's title, for messages. */
  api: string,
  functions: readonly RoutedFunction<F>[],
  operations: Readonly<Record<string, D>>,
  operation: (fn: F, doc: D) => JsonObject,
): Record<string, JsonObject> {
  const paths: Record<string, JsonObject> = {};
  const documented = new Set<string>();
  for (const { fn, route, path } of functions) {
    const doc = operations[fn.name];
    if (doc === undefined) throw new Error(`Function ${fn.name} (${route}) has no description for the OpenAPI document of ${api}.`);
    documented.add(fn.name);
    const pathItem = (paths[path] ??= {});
    for (const method of fn.methods) pathItem[method.toLowerCase()] = operation(fn, doc);
  }
  const missing = Object.keys(operations).filter((name) => !documented.has(name));
  if (missing.length > 0) throw new Error(`Described operations with no function in ${api}: ${missing.join(', ')}.`);
  return paths;
}
