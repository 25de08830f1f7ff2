// The methods each path is served with, collected from the routes Fastify registers, so that a
// known path asked with a method it does not take gets 405 with Allow instead of 404. Consulted
// only when the router found nothing, never on a served request.

/** Allow names methods in this order; any others follow, alphabetically. */
const METHOD_ORDER: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `:name` as a whole segment; other forms (regex, several in a segment, `*`) are not modelled. */
const PARAM_SEGMENT = /^:\w+$/;

/** One segment of a route pattern: literal text, or a `:param`. */
type PatternSegment = { literal: string } | 'param';

interface RoutePattern {
  segments: PatternSegment[];
  methods: Set<string>;
}

export interface RouteMatchOptions {
  /** The router's `ignoreTrailingSlash`: `/v1/models/` is `/v1/models`. */
  ignoreTrailingSlash: boolean;
  /** The router's `maxParamLength`: a longer (decoded) parameter matches no route. */
  maxParamLength: number;
}

function trimLastSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function methodRank(method: string): number {
  const rank = METHOD_ORDER.indexOf(method);
  return rank === -1 ? METHOD_ORDER.length : rank;
}

export class RouteMethods {
  /** By route pattern, as registered (prefix included). */
  readonly #patterns = new Map<string, RoutePattern>();

  constructor(private readonly options: RouteMatchOptions) {}

  /** Records a registered route (Fastify's `onRoute`). */
  add(url: string, method: string | readonly string[]): void {
    const key = this.options.ignoreTrailingSlash ? trimLastSlash(url) : url;
    let pattern = this.#patterns.get(key);
    if (!pattern) {
      const segments = parsePattern(key);
      // A form not modelled here is left out: its paths answer 404 as before, never a wrong 405.
      if (!segments) return;
      pattern = { segments, methods: new Set() };
      this.#patterns.set(key, pattern);
    }
    for (const one of typeof method === 'string' ? [method] : method) pattern.methods.add(one.toUpperCase());
  }

  /**
   * The methods some route serves at this request target (path and query as received), in Allow
   * order; empty when no route pattern matches the path.
   */
  allowedAt(target: string): string[] {
    const segments = this.#requestSegments(target);
    if (!segments) return [];
    const allowed = new Set<string>();
    for (const pattern of this.#patterns.values()) {
      if (this.#matches(pattern.segments, segments)) for (const method of pattern.methods) allowed.add(method);
    }
    return [...allowed].sort((a, b) => methodRank(a) - methodRank(b) || a.localeCompare(b));
  }

  /** The path's segments, percent-decoded, as the router reads them; undefined if it cannot be read. */
  #requestSegments(target: string): string[] | undefined {
    let path = target;
    // Absolute form (`GET http://host/v1/models`): the router routes on its path.
    if (!path.startsWith('/')) {
      const schemeEnd = path.indexOf('://');
      if (schemeEnd === -1 || !/^https?$/i.test(path.slice(0, schemeEnd))) return undefined;
      const afterScheme = path.slice(schemeEnd + 3);
      const pathStart = afterScheme.search(/[/?#]/);
      path = pathStart !== -1 && afterScheme[pathStart] === '/' ? afterScheme.slice(pathStart) : '/';
    }
    const end = path.search(/[?#]/);
    if (end !== -1) path = path.slice(0, end);
    if (this.options.ignoreTrailingSlash) path = trimLastSlash(path);
    const segments = path.split('/');
    for (const [i, segment] of segments.entries()) {
      if (!segment.includes('%')) continue;
      try {
        segments[i] = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
    }
    return segments;
  }

  #matches(pattern: readonly PatternSegment[], path: readonly string[]): boolean {
    if (pattern.length !== path.length) return false;
    for (const [i, part] of pattern.entries()) {
      const segment = path[i];
      if (segment === undefined) return false;
      // An empty parameter matches, as in the router (`/v1/videos//content` reaches its route).
      if (part === 'param') {
        if (segment.length > this.options.maxParamLength) return false;
      } else if (segment !== part.literal) {
        return false;
      }
    }
    return true;
  }
}

function parsePattern(url: string): PatternSegment[] | undefined {
  const parts = url.split('/');
  const segments: PatternSegment[] = [];
  for (const part of parts) {
    if (PARAM_SEGMENT.test(part)) segments.push('param');
    else if (/[:*(]/.test(part)) return undefined;
    else segments.push({ literal: part });
  }
  return segments;
}
