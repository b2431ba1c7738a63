import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.js';
import { problemsOf } from './problemsOf.js';
import { validSettings } from './validSettings.js';

const base = validSettings;

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

describe('RECONCILE_DELAY_SECONDS', () => {
  it('is read into the configuration; 0 reconciles at once', () => {
    expect(loadConfig(base).reconcileDelaySeconds).toBe(900);
    expect(loadConfig({ ...base, RECONCILE_DELAY_SECONDS: '0' }).reconcileDelaySeconds).toBe(0);
    expect(loadConfig({ ...base, RECONCILE_DELAY_SECONDS: '3600' }).reconcileDelaySeconds).toBe(3600);
  });

  it('is at most an hour: a longer delay would leave every close RECEIVED past what partners are told', () => {
    expect(problemsOf({ ...base, RECONCILE_DELAY_SECONDS: '3601' })).toEqual(['RECONCILE_DELAY_SECONDS must be at most 3600']);
    // Past what Azure lets a queue message stay hidden (7 days): every close would fail to schedule.
    expect(problemsOf({ ...base, RECONCILE_DELAY_SECONDS: '691200' })).toEqual(['RECONCILE_DELAY_SECONDS must be at most 3600']);
  });
});
