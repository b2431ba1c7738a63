/**
 * Matches request paths against Functions route templates the way the Functions host does:
 * literal segments compare case-insensitively, `{name}` captures one segment (percent-decoded),
 * `{name?}` may be left off at the end, `{name:int}` / `:long` / `:alpha` / `:bool` / `:guid`
 * restrict a parameter, `{*name}` captures the rest of the path. Literal segments win over
 * parameters when several routes match.
 */

interface CompiledSegment {
  readonly pattern: RegExp;
  readonly paramNames: readonly string[];
  readonly optional: boolean;
  readonly catchAll: boolean;
  /** Lower is more specific. */
  readonly rank: number;
}

interface CompiledRoute<T> {
  readonly value: T;
  readonly segments: readonly CompiledSegment[];
}

export interface RouteMatch<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

const constraintPatterns: Record<string, string> = {
  int: '-?\\d+',
  long: '-?\\d+',
  alpha: '[A-Za-z]+',
  bool: '(?:true|false)',
  guid: '[0-9A-Fa-f]{8}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{4}-?[0-9A-Fa-f]{12}',
};

const parameterToken = /\{(\*{1,2})?([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z]+)(?:\([^)]*\))?)?(\?)?\}/g;

export class RouteTable<T> {
  readonly #routes: CompiledRoute<T>[] = [];

  /** Adds a route template (relative to the route prefix; the prefix is passed as its own template). */
  add(template: string, value: T): void {
    this.#routes.push({ value, segments: compileTemplate(template) });
  }

  /** Every route matching the path, most specific first. `pathSegments` are already percent-decoded. */
  match(pathSegments: readonly string[]): RouteMatch<T>[] {
    const matches: { match: RouteMatch<T>; ranks: number[] }[] = [];
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, pathSegments);
      if (params) matches.push({ match: { value: route.value, params }, ranks: route.segments.map((s) => s.rank) });
    }
    matches.sort((a, b) => compareRanks(a.ranks, b.ranks));
    return matches.map((entry) => entry.match);
  }
}

/**
 * Splits a raw URL path into percent-decoded segments; undefined when the encoding is invalid.
 * Like the host's web server (Kestrel decodes every escape of a path but `%2F`), an encoded slash
 * stays `%2F` as sent: a route parameter holding one gets it undecoded in Azure too, and the
 * endpoint that takes such a value decodes it (`routeStoreId`).
 */
export function decodePathSegments(rawPath: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of rawPath.split('/')) {
    if (raw === '') continue;
    try {
      // The capture keeps each `%2F` between the decoded pieces.
      segments.push(
        raw
          .split(/(%2F)/i)
          .map((piece, i) => (i % 2 === 1 ? piece : decodeURIComponent(piece)))
          .join(''),
      );
    } catch {
      return undefined;
    }
  }
  return segments;
}

function compileTemplate(template: string): CompiledSegment[] {
  const parts = template.split('/').filter((part) => part !== '');
  return parts.map((part, index) => {
    const paramNames: string[] = [];
    let optional = false;
    let catchAll = false;
    let constrained = false;
    let source = '';
    let last = 0;
    for (const token of part.matchAll(parameterToken)) {
      source += escapeRegExp(part.slice(last, token.index));
      const [, star, name, constraint, question] = token;
      // The name group is not optional in the pattern: every match has one.
      if (name === undefined) throw new Error(`Route "${template}": cannot parse segment "${part}".`);
      paramNames.push(name);
      if (star) {
        if (index !== parts.length - 1 || token[0] !== part) {
          throw new Error(`Route "${template}": a catch-all parameter must be the whole last segment.`);
        }
        catchAll = true;
        optional = true;
        source += '(.*)';
      } else {
        const constraintPattern = constraint ? constraintPatterns[constraint.toLowerCase()] : undefined;
        if (constraintPattern) constrained = true;
        source += `(${constraintPattern ?? '.+?'})`;
        if (question) optional = true;
      }
      last = token.index + token[0].length;
    }
    source += escapeRegExp(part.slice(last));
    if (source.includes('\\{') || source.includes('\\}')) {
      throw new Error(`Route "${template}": cannot parse segment "${part}".`);
    }
    const rank = catchAll ? 4 : paramNames.length === 0 ? 0 : optional ? 3 : constrained ? 1 : 2;
    return { pattern: new RegExp(`^${source}$`, 'is'), paramNames, optional, catchAll, rank };
  });
}

function matchSegments(template: readonly CompiledSegment[], path: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const [index, segment] of template.entries()) {
    if (segment.catchAll) {
      // A catch-all is the whole segment, so it has exactly one name.
      for (const name of segment.paramNames) params[name] = path.slice(index).join('/');
      return params;
    }
    const value = path[index];
    if (value === undefined) {
      // The rest of the template must be optional parameters.
      return template.slice(index).every((rest) => rest.optional) ? params : undefined;
    }
    const found = segment.pattern.exec(value);
    if (!found) return undefined;
    segment.paramNames.forEach((name, position) => {
      params[name] = found[position + 1] ?? '';
    });
  }
  return path.length === template.length ? params : undefined;
}

function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 5) - (b[index] ?? 5);
    if (difference !== 0) return difference;
  }
  return 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
