import type { ProblemDetail } from '../errors/ProblemDetail.js';
import { escapePointerToken, isDisplaySafeName } from '../domain/validation/jsonPointer.js';
import { maxJsonDepth } from './maxJsonDepth.js';
import { readsBack, significantDigits } from './readsBack.js';

// What the scanner expects next.
const EXPECT_VALUE = 0;
const EXPECT_VALUE_OR_END = 1; // right after '['
const EXPECT_KEY = 2; // after ',' in an object
const EXPECT_KEY_OR_END = 3; // right after '{'
const EXPECT_COLON = 4;
const EXPECT_COMMA_OR_END = 5;
const EXPECT_NOTHING = 6; // the top-level value is complete

const KIND_OBJECT = 1;
const KIND_ARRAY = 2;

/** Objects with more keys than this switch from a linear key list to a Set. */
const linearKeyLimit = 16;

/** Thrown inside the scanner and caught by `scan`, which turns it into a problem. */
class ScanError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

/**
 * A validating JSON tokenizer that keeps only what it needs: the kind of each open container,
 * the keys seen in each open object (to find duplicates), and the current key or index of each
 * level (to build a path for a problem). It runs in time linear in the text. `parseJsonBody` hands
 * it the bodies its fast path does not accept, to say what is wrong and where: a problem gives a
 * path, a line and a column, never the submitted text.
 */
export class JsonScanner {
  private pos = 0;
  private depth = 0;
  private readonly kinds = new Uint8Array(maxJsonDepth + 1);
  private readonly indexes: number[] = [];
  private readonly currentKeys: (string | undefined)[] = [];
  private readonly keyLists: string[][] = [];
  private readonly keySets: (Set<string> | undefined)[] = [];
  /** Offset of the next backslash at or after `pos`, or -1 when none; recomputed lazily. */
  private nextBackslash = -2;

  constructor(private readonly text: string) {}

  scan(): ProblemDetail | undefined {
    try {
      this.run();
      return undefined;
    } catch (error) {
      if (error instanceof ScanError) return this.toProblem(error);
      throw error;
    }
  }

  private run(): void {
    const text = this.text;
    const length = text.length;
    let expect = EXPECT_VALUE;
    let first = true;
    for (;;) {
      let c = text.charCodeAt(this.pos);
      while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.pos);
      if (this.pos >= length) break;
      if (first) {
        if (c !== 0x7b) throw new ScanError(this.pos, 'The body must be a JSON object.');
        first = false;
      }
      switch (expect) {
        case EXPECT_VALUE:
        case EXPECT_VALUE_OR_END:
          if (c === 0x5d && expect === EXPECT_VALUE_OR_END) {
            this.pos++;
            expect = this.close();
          } else {
            expect = this.value(c);
          }
          break;
        case EXPECT_KEY:
        case EXPECT_KEY_OR_END:
          if (c === 0x7d && expect === EXPECT_KEY_OR_END) {
            this.pos++;
            expect = this.close();
          } else if (c === 0x22) {
            this.key();
            expect = EXPECT_COLON;
          } else {
            throw new ScanError(this.pos, 'Expected a property name in double quotes.');
          }
          break;
        case EXPECT_COLON:
          if (c !== 0x3a) throw new ScanError(this.pos, "Expected ':' after a property name.");
          this.pos++;
          expect = EXPECT_VALUE;
          break;
        case EXPECT_COMMA_OR_END: {
          const kind = this.kinds[this.depth];
          if (c === 0x2c) {
            this.pos++;
            if (kind === KIND_OBJECT) {
              expect = EXPECT_KEY;
            } else {
              this.indexes[this.depth] = (this.indexes[this.depth] ?? 0) + 1;
              expect = EXPECT_VALUE;
            }
          } else if ((c === 0x7d && kind === KIND_OBJECT) || (c === 0x5d && kind === KIND_ARRAY)) {
            this.pos++;
            expect = this.close();
          } else {
            throw new ScanError(this.pos, kind === KIND_OBJECT ? "Expected ',' or '}'." : "Expected ',' or ']'.");
          }
          break;
        }
        default:
          throw new ScanError(this.pos, 'Unexpected data after the end of the JSON object.');
      }
    }
    if (first) throw new ScanError(0, 'The body is empty.');
    if (expect !== EXPECT_NOTHING) throw new ScanError(length, 'The body ends before the JSON object is complete.');
  }

  /** Reads one value starting with character `c`; returns what follows it. */
  private value(c: number): number {
    if (c === 0x7b || c === 0x5b) {
      if (this.depth >= maxJsonDepth) {
        throw new ScanError(this.pos, `The body is nested deeper than ${maxJsonDepth} levels.`);
      }
      this.depth++;
      this.pos++;
      if (c === 0x7b) {
        this.kinds[this.depth] = KIND_OBJECT;
        const list = this.keyLists[this.depth];
        if (list === undefined) this.keyLists[this.depth] = [];
        else list.length = 0;
        this.keySets[this.depth] = undefined;
        this.currentKeys[this.depth] = undefined;
        return EXPECT_KEY_OR_END;
      }
      this.kinds[this.depth] = KIND_ARRAY;
      this.indexes[this.depth] = 0;
      return EXPECT_VALUE_OR_END;
    }
    if (c === 0x22) {
      this.string();
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      this.number();
    } else if (c === 0x74) {
      this.literal('true');
    } else if (c === 0x66) {
      this.literal('false');
    } else if (c === 0x6e) {
      this.literal('null');
    } else {
      throw new ScanError(this.pos, 'Expected a JSON value.');
    }
    return this.depth === 0 ? EXPECT_NOTHING : EXPECT_COMMA_OR_END;
  }

  private close(): number {
    this.depth--;
    return this.depth === 0 ? EXPECT_NOTHING : EXPECT_COMMA_OR_END;
  }

  private key(): void {
    const start = this.pos;
    const hasEscape = this.string();
    const raw = this.text.slice(start + 1, this.pos - 1);
    const key = hasEscape ? (JSON.parse(this.text.slice(start, this.pos)) as string) : raw;
    const depth = this.depth;
    this.currentKeys[depth] = key;
    const set = this.keySets[depth];
    if (set !== undefined) {
      if (set.has(key)) this.duplicate(start);
      set.add(key);
      return;
    }
    const list = this.keyLists[depth];
    // `value` gives every object level its list when the object opens.
    if (list === undefined) throw new Error('A key was scanned outside an object.');
    if (list.includes(key)) this.duplicate(start);
    list.push(key);
    if (list.length > linearKeyLimit) this.keySets[depth] = new Set(list);
  }

  private duplicate(offset: number): never {
    throw new ScanError(offset, 'Duplicate key in one object.');
  }

  /**
   * Skips a string whose opening quote is at `pos`; leaves `pos` after the closing quote.
   * Checks escapes, including that an escaped surrogate is part of a pair. Returns whether the
   * string held an escape. Raw control characters are left to `JSON.parse`, which rejects them.
   */
  private string(): boolean {
    const text = this.text;
    let i = this.pos + 1;
    let hasEscape = false;
    for (;;) {
      const quote = text.indexOf('"', i);
      if (quote < 0) throw new ScanError(this.pos, 'A string is not terminated.');
      if (this.nextBackslash !== -1 && this.nextBackslash < i) this.nextBackslash = text.indexOf('\\', i);
      const backslash = this.nextBackslash;
      if (backslash === -1 || backslash > quote) {
        this.pos = quote + 1;
        return hasEscape;
      }
      hasEscape = true;
      i = this.escape(backslash);
    }
  }

  /** Checks the escape sequence at `at` (a backslash); returns the offset after it. */
  private escape(at: number): number {
    const text = this.text;
    const c = text.charCodeAt(at + 1);
    if (c === 0x75) {
      const unit = this.hex4(at + 2);
      if (unit >= 0xdc00 && unit <= 0xdfff) {
        throw new ScanError(at, 'A string holds an unpaired surrogate escape.');
      }
      if (unit >= 0xd800 && unit <= 0xdbff) {
        if (text.charCodeAt(at + 6) !== 0x5c || text.charCodeAt(at + 7) !== 0x75) {
          throw new ScanError(at, 'A string holds an unpaired surrogate escape.');
        }
        const low = this.hex4(at + 8);
        if (low < 0xdc00 || low > 0xdfff) throw new ScanError(at, 'A string holds an unpaired surrogate escape.');
        return at + 12;
      }
      return at + 6;
    }
    if (c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) {
      return at + 2;
    }
    throw new ScanError(at, 'A string holds an invalid escape sequence.');
  }

  private hex4(at: number): number {
    let unit = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.text.charCodeAt(at + k);
      let digit: number;
      if (c >= 0x30 && c <= 0x39) digit = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) digit = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) digit = c - 0x37;
      else throw new ScanError(at - 2, 'A string holds an invalid \\u escape.');
      unit = unit * 16 + digit;
    }
    return unit;
  }

  /**
   * Skips a number, checking its grammar, that it does not overflow to Infinity and, when it has a
   * fraction or an exponent, that it reads back as written from the double it becomes: its value
   * equals the shortest decimal form of that double.
   */
  private number(): void {
    const text = this.text;
    const start = this.pos;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    let c = text.charCodeAt(i);
    if (c === 0x30) {
      c = text.charCodeAt(++i);
    } else if (c >= 0x31 && c <= 0x39) {
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    } else {
      throw new ScanError(start, 'A number is malformed.');
    }
    const hasFraction = c === 0x2e;
    if (hasFraction) {
      c = text.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) throw new ScanError(start, 'A number is malformed.');
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    let hasExponent = false;
    if (c === 0x65 || c === 0x45) {
      hasExponent = true;
      c = text.charCodeAt(++i);
      if (c === 0x2b || c === 0x2d) c = text.charCodeAt(++i);
      if (!(c >= 0x30 && c <= 0x39)) throw new ScanError(start, 'A number is malformed.');
      do c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39);
    }
    // Without an exponent a number needs over 300 digits to overflow or to come near the smallest
    // doubles; a shorter one of at most 15 significant digits reads back exactly, so most numbers
    // are not converted here at all. An integer written without fraction or exponent needs no
    // exactness check: one a double cannot hold is above 2^53, which every integer field refuses.
    const long = i - start > 300;
    const digits = hasExponent || hasFraction ? significantDigits(text, start, i) : 0;
    if (hasExponent || long || digits > 15) {
      const written = text.slice(start, i);
      const kept = Number(written);
      if (!Number.isFinite(kept)) throw new ScanError(start, 'A number is too large.');
      if ((hasExponent || hasFraction) && !readsBack(written, kept, digits)) {
        throw new ScanError(start, 'A number would change when held as a double (too many digits, or too small); write it exactly.');
      }
    }
    this.pos = i;
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.pos)) throw new ScanError(this.pos, 'Expected a JSON value.');
    this.pos += word.length;
  }

  /** The problem for an error: a path to where the scanner was, and the line and column. */
  private toProblem(error: ScanError): ProblemDetail {
    let path = '';
    for (let level = 1; level <= this.depth; level++) {
      if (this.kinds[level] === KIND_ARRAY) {
        path += '/' + String(this.indexes[level] ?? 0);
      } else {
        const key = this.currentKeys[level];
        if (key === undefined || !isDisplaySafeName(key)) break;
        path += '/' + escapePointerToken(key);
      }
    }
    let line = 1;
    let lineStart = 0;
    const end = Math.min(error.offset, this.text.length);
    for (let i = this.text.indexOf('\n'); i >= 0 && i < end; i = this.text.indexOf('\n', i + 1)) {
      line++;
      lineStart = i + 1;
    }
    const column = end - lineStart + 1;
    return { path, message: `${error.message} (line ${line}, column ${column})` };
  }
}
