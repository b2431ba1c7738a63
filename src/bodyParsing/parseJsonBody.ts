import { isAscii } from 'node:buffer';
import type { ProblemDetail } from '../errors/ProblemDetail.js';
import { JsonScanner } from './JsonScanner.js';
import { maxJsonDepth } from './maxJsonDepth.js';

export type ParseJsonBodyResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problems: ProblemDetail[] };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Turns the raw bytes of a request into a JSON object, refusing anything hostile or ambiguous:
 * bytes that are not UTF-8, a byte order mark, syntax errors, nesting deeper than
 * {@link maxJsonDepth}, duplicate keys within one object, escaped lone surrogates, numbers too
 * large for a double, numbers that read back differently once held as a double (`2.9999999999999999`
 * would become the integer 3, `1e-400` would become 0), and a top-level value that is not an object.
 *
 * Most bodies are fine, so the check that accepts them is the cheap one: a pass over the text
 * that only skips strings (checking their escapes) and counts nesting and property names, then
 * `JSON.parse`, then a walk of the value that counts its properties and checks its numbers. A
 * duplicate key is the only way an object of the value can have fewer properties than the text
 * wrote, so equal counts prove there is none. Whatever that path does not accept goes to the
 * validating scanner, which finds the problem and says where: messages give positions and paths,
 * never the submitted values. The native parser never sees a document nested too deeply.
 */
export function parseJsonBody(bytes: Uint8Array): ParseJsonBodyResult {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return fail('', 'The body starts with a byte order mark; send UTF-8 JSON without a BOM.');
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) return fail('', 'The body is not valid UTF-8.');
  const keyCount = countKeysWithinLimits(bytes);
  let value: unknown;
  if (keyCount >= 0) {
    try {
      value = JSON.parse(text);
      if (isObject(value) && propertyCountIfFinite(value) === keyCount) return { ok: true, value };
    } catch {
      // Not JSON: the scanner below says why and where (the native message quotes the input).
    }
  }
  const scanProblem = new JsonScanner(text).scan();
  if (scanProblem !== undefined) return { ok: false, problems: [scanProblem] };
  // The scanner accepts only what the checks above accept; this keeps a body it accepted usable
  // should the two ever disagree.
  try {
    return { ok: true, value: value ?? JSON.parse(text) };
  } catch {
    return fail('', 'The body is not well-formed JSON.');
  }
}

/**
 * The text of UTF-8 bytes, or undefined when they are not UTF-8. Most bodies are ASCII, whose
 * bytes are their text as Latin-1 too: checking that and copying costs a third of the validating
 * decoder (bench/ROUNDS.md, round 20).
 */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The number of property names in a JSON text (one `:` outside strings each), or -1 when the text
 * nests deeper than {@link maxJsonDepth}, escapes a lone surrogate, has a string without its end or
 * writes a number with a fraction or an exponent (the contract's numbers are integers, so such a
 * number is rare, and only the scanner checks that it reads back the same from a double).
 * It does not check the grammar: on text `JSON.parse` refuses, the count means nothing.
 *
 * It reads the UTF-8 bytes, not the decoded text: every character it looks for is ASCII, and no
 * byte of a multi-byte character is below 0x80, so the bytes give the same answer at about half
 * the cost of reading characters (bench/ROUNDS.md, round 10).
 */
function countKeysWithinLimits(bytes: Uint8Array): number {
  const length = bytes.length;
  let keys = 0;
  let depth = 0;
  // A plain loop: `indexOf` from a position, called for every string, was seen to turn quadratic
  // once optimised.
  for (let i = 0; i < length; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      for (;;) {
        const d = bytes[++i];
        if (d === 0x22) break;
        if (d === 0x5c) {
          const end = escapeEnd(bytes, i);
          if (end < 0) return -1;
          i = end - 1;
        } else if (i >= length) {
          return -1;
        }
      }
    } else if (c === 0x3a) {
      keys++;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxJsonDepth) return -1;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2e || ((c === 0x65 || c === 0x45) && isDigitByte(bytes[i - 1]))) {
      return -1;
    }
  }
  return keys;
}

function isDigitByte(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** The offset after the escape at `at` (a backslash), or -1 for an escaped lone surrogate or a malformed \u escape. */
function escapeEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at + 1] !== 0x75) return at + 2;
  const unit = hexUnit(bytes, at + 2);
  if (unit < 0xd800 || unit > 0xdfff) return unit < 0 ? -1 : at + 6;
  if (unit >= 0xdc00 || bytes[at + 6] !== 0x5c || bytes[at + 7] !== 0x75) return -1;
  const low = hexUnit(bytes, at + 8);
  return low >= 0xdc00 && low <= 0xdfff ? at + 12 : -1;
}

/** The UTF-16 unit of four hex digits at `at`, or -1. */
function hexUnit(bytes: Uint8Array, at: number): number {
  let unit = 0;
  for (let k = 0; k < 4; k++) {
    const c = bytes[at + k] ?? -1;
    if (c >= 0x30 && c <= 0x39) unit = unit * 16 + c - 0x30;
    else if (c >= 0x61 && c <= 0x66) unit = unit * 16 + c - 0x57;
    else if (c >= 0x41 && c <= 0x46) unit = unit * 16 + c - 0x37;
    else return -1;
  }
  return unit;
}

/**
 * The number of properties of every object in a parsed value, or -1 when a number in it is not
 * finite (`JSON.parse` turns one too large for a double into Infinity).
 */
function propertyCountIfFinite(root: object): number {
  let properties = 0;
  const stack: object[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (Array.isArray(node)) {
      for (const item of node as unknown[]) {
        if (typeof item === 'object') {
          if (item !== null) stack.push(item);
        } else if (typeof item === 'number' && !Number.isFinite(item)) {
          return -1;
        }
      }
    } else {
      // for-in rather than Object.keys: no array of names per object (JSON.parse builds plain
      // objects, whose prototype has no enumerable property).
      for (const name in node) {
        properties++;
        const item = (node as Record<string, unknown>)[name];
        if (typeof item === 'object') {
          if (item !== null) stack.push(item);
        } else if (typeof item === 'number' && !Number.isFinite(item)) {
          return -1;
        }
      }
    }
  }
  return properties;
}

function fail(path: string, message: string): ParseJsonBodyResult {
  return { ok: false, problems: [{ path, message }] };
}
