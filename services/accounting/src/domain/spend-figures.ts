// The sums every spend view carries (daily rows, spend per group, the last days), and what one
// call adds to them. Rows written by earlier releases have no cache fields: they count as 0.

/** What billed calls add up to. */
export interface SpendFigures {
  spent_nano_usd: number;
  requests: number;
  /** Prompt tokens the upstream served from its prompt cache (a part of the prompt tokens). */
  cached_tokens: number;
  /** What those cached tokens saved against the uncached input price. */
  cache_saved_nano_usd: number;
}

/** Figures as stored: the cache fields are missing from rows of earlier releases. */
export type StoredFigures = Pick<SpendFigures, 'spent_nano_usd' | 'requests'> & Partial<SpendFigures>;

export function noFigures(): SpendFigures {
  return { spent_nano_usd: 0, requests: 0, cached_tokens: 0, cache_saved_nano_usd: 0 };
}

/** One call's figures, from its cost, its usage map and its saving. */
export function callFigures(
  cost: number,
  usage: Readonly<Record<string, number>> | null | undefined,
  saved: number | undefined,
): SpendFigures {
  return { spent_nano_usd: cost, requests: 1, cached_tokens: usage?.cached_tokens ?? 0, cache_saved_nano_usd: saved ?? 0 };
}

/** Adds `more` into `sum` and returns `sum`. */
export function addFigures<T extends SpendFigures>(sum: T, more: StoredFigures): T {
  sum.spent_nano_usd += more.spent_nano_usd;
  sum.requests += more.requests;
  sum.cached_tokens += more.cached_tokens ?? 0;
  sum.cache_saved_nano_usd += more.cache_saved_nano_usd ?? 0;
  return sum;
}

/** A daily row's `$inc`: always every field, so the store's counter upsert keeps one statement shape. */
export function figuresInc(figures: SpendFigures): Record<keyof SpendFigures, number> {
  return {
    spent_nano_usd: figures.spent_nano_usd,
    requests: figures.requests,
    cached_tokens: figures.cached_tokens,
    cache_saved_nano_usd: figures.cache_saved_nano_usd,
  };
}
