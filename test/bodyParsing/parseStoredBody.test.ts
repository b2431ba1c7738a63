import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../src/bodyParsing/parseJsonBody.js';
import { parseStoredBody } from '../../src/bodyParsing/parseStoredBody.js';

describe('parseStoredBody', () => {
  it('reads a stored body whatever rule of parseJsonBody was added since it was accepted', () => {
    const body = Buffer.from('{"batch_seq":2.9999999999999999,"name":"漢字"}');
    expect(parseJsonBody(body).ok).toBe(false);
    expect(parseStoredBody(body)).toEqual({ batch_seq: 3, name: '漢字' });
  });

  it('answers undefined for bytes that are not JSON', () => {
    expect(parseStoredBody(Buffer.from('{"batch_seq":'))).toBeUndefined();
  });
});
