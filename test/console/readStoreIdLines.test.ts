import { describe, expect, it } from 'vitest';
import { readStoreIdLines } from '../../console/src/views/readStoreIdLines.js';

describe('store ids typed for registration', () => {
  it('are one per line, kept exactly: spaces and commas belong to the id', () => {
    expect(readStoreIdLines('<svg onload=alert(5)>\nNYC 0001, Broadway\r\nA  B\rC')).toEqual({
      ids: ['<svg onload=alert(5)>', 'NYC 0001, Broadway', 'A  B', 'C'],
      paddedLines: [],
    });
  });

  it('skip blank lines and repeated ids', () => {
    expect(readStoreIdLines('\n  \nNYC-1\n\t\nNYC-1\nNYC-2\n')).toEqual({ ids: ['NYC-1', 'NYC-2'], paddedLines: [] });
  });

  it('name the lines with whitespace at either end instead of trimming them', () => {
    expect(readStoreIdLines('NYC-1\n NYC-2\nNYC-3\t\nNYC-4\u00a0')).toEqual({ ids: ['NYC-1'], paddedLines: [2, 3, 4] });
  });
});
