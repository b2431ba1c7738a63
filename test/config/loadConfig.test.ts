import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/ConfigError.js';
import { loadConfig, type Settings } from '../../src/config/loadConfig.js';

const base: Settings = {
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  RECONCILE_DELAY_SECONDS: '900',
  MAX_REQUEST_BODY_BYTES: '5242880',
  RATE_LIMIT_PER_MINUTE: '600',
  BATCH_SWEEP_DELAY_SECONDS: '300',
  PARTNER_CACHE_SECONDS: '30',
  MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
  REPORTS_CONTAINER: 'reports',
  EVENT_TYPE_PREFIX: 'com.example.pos',
};

function problemsOf(settings: Settings): readonly string[] {
  try {
    loadConfig(settings);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('REPORTS_CONTAINER', () => {
  it('is read into the configuration', () => {
    expect(loadConfig({ ...base, REPORTS_CONTAINER: 'hq-reports-2' }).reportsContainer).toBe('hq-reports-2');
  });

  it('must be set: there is no silent default', () => {
    expect(problemsOf({ ...base, REPORTS_CONTAINER: undefined })).toEqual(['REPORTS_CONTAINER is not set']);
    expect(problemsOf({ ...base, REPORTS_CONTAINER: '  ' })).toEqual(['REPORTS_CONTAINER is not set']);
  });

  it.each(['Reports', 're', 'a'.repeat(64), 'reports--x', '-reports', 'reports-', 'rep_orts', 'rep/orts'])(
    'refuses %s, which is not a blob container name',
    (name) => {
      expect(problemsOf({ ...base, REPORTS_CONTAINER: name })).toEqual([
        expect.stringMatching(/^REPORTS_CONTAINER must be a blob container name/),
      ]);
    },
  );

  it('refuses the raw-batch container, so that report readers never reach raw bodies', () => {
    expect(problemsOf({ ...base, REPORTS_CONTAINER: 'raw-batches' })).toEqual([
      expect.stringMatching(/^REPORTS_CONTAINER must name a container of its own/),
    ]);
  });
});

describe('PARTNER_CACHE_SECONDS', () => {
  it('is read into the configuration; 0 turns the cache off', () => {
    expect(loadConfig(base).partnerCacheSeconds).toBe(30);
    expect(loadConfig({ ...base, PARTNER_CACHE_SECONDS: '0' }).partnerCacheSeconds).toBe(0);
  });

  it('must be set, and at most 60: a revocation must not wait longer', () => {
    expect(problemsOf({ ...base, PARTNER_CACHE_SECONDS: undefined })).toEqual(['PARTNER_CACHE_SECONDS is not set']);
    expect(problemsOf({ ...base, PARTNER_CACHE_SECONDS: '61' })).toEqual(['PARTNER_CACHE_SECONDS must be at most 60']);
    expect(problemsOf({ ...base, PARTNER_CACHE_SECONDS: '-1' })).toEqual(['PARTNER_CACHE_SECONDS must be an integer >= 0']);
  });
});
