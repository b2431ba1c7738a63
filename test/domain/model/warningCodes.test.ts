import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { warningCodes } from '../../../src/domain/model/Warning.js';

const root = new URL('../../../', import.meta.url);
const read = (file: string): string => readFileSync(new URL(file, root), 'utf8');

/** The codes written in upper snake case in a text, in order of first appearance. */
const codesIn = (text: string): string[] => [...new Set(text.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [])];

describe('the warning codes', () => {
  it("are the ones the response schema's description names to partners", () => {
    const schema = JSON.parse(read('schemas/responses.schema.json')) as {
      $defs: { warning: { properties: { code: { description: string } } } };
    };
    expect(codesIn(schema.$defs.warning.properties.code.description)).toEqual([...warningCodes]);
  });

  it("are the ones the README's list of warnings names", () => {
    const bullet = /^- \*\*Warnings\*\*[\s\S]*?(?=^- \*\*)/m.exec(read('README.md'))?.[0];
    expect(bullet).toBeDefined();
    // Only the codes in backticks: the explanations name other things in upper case too.
    const named = [...bullet!.matchAll(/`([A-Z][A-Z_]+)`/g)].map((match) => match[1]);
    expect(named).toEqual([...warningCodes]);
  });
});
