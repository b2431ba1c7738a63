import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/ConfigError.js';
import { defaultLocalPort, localPort } from '../../src/localhost/localPort.js';

describe('localPort', () => {
  it('takes a port number, 0 included, and the default when PORT is unset or empty', () => {
    expect(localPort('8080')).toBe(8080);
    expect(localPort('0')).toBe(0);
    expect(localPort('65535')).toBe(65535);
    expect(localPort(undefined)).toBe(defaultLocalPort);
    expect(localPort('')).toBe(defaultLocalPort);
  });

  it('refuses anything else before the host starts', () => {
    for (const value of ['abc', '65536', '-1', '80.5', ' 80', '0x50', '1e3', '123456'])
      expect(() => localPort(value), value).toThrow(ConfigError);
  });
});
