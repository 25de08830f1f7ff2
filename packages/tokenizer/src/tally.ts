import { MEMO_MIN_CHARS, type TokenMemo } from './memo.js';
import { countTextTokens } from './text.js';

// Joins a run of short texts into one memo key. No text holding a NUL reaches the memo (such
// texts are counted directly), so a run's key can never equal a single text's key.
const SEPARATOR = '\u0000';

/**
 * Sums the tokens of a body's texts in order. Long texts go to the memo one by one; short ones
 * (most chat turns) are grouped into runs of at least MEMO_MIN_CHARS, each run memoized as one
 * key. Runs are cut from the start of the body, so a history that only grows between turns cuts
 * the same runs every turn and finds them in the memo; a run's value is the sum of its texts'
 * own counts, so a warm count equals a cold one exactly.
 */
export class TokenTally {
  tokens = 0;
  private run: string[] = [];
  private runChars = 0;

  constructor(private readonly memo: TokenMemo) {}

  add(text: string): void {
    if (text.length === 0) return;
    if (text.includes(SEPARATOR)) {
      this.tokens += countTextTokens(text);
      return;
    }
    if (text.length >= MEMO_MIN_CHARS) {
      this.tokens += this.memo.count(text);
      return;
    }
    this.run.push(text);
    this.runChars += text.length + 1;
    if (this.runChars >= MEMO_MIN_CHARS) this.flush();
  }

  /** Counts what is left (a last run shorter than the memo's threshold is counted directly). */
  total(): number {
    if (this.run.length > 0 && this.runChars < MEMO_MIN_CHARS) {
      for (const text of this.run) this.tokens += countTextTokens(text);
      this.run = [];
      this.runChars = 0;
    }
    this.flush();
    return this.tokens;
  }

  private flush(): void {
    if (this.run.length === 0) return;
    const run = this.run;
    this.tokens += this.memo.lookup(run.join(SEPARATOR), () => {
      let sum = 0;
      for (const text of run) sum += countTextTokens(text);
      return sum;
    });
    this.run = [];
    this.runChars = 0;
  }
}
