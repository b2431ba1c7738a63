import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { metricLine, type MetricName } from '../../src/observability/Telemetry.js';

/*
 * The alert rules in infra/ find the service's figures by the start of their log line and read the
 * value as its third word: the two sides must agree, and every figure HQ is to be alerted on needs
 * a rule sending to the action group.
 */

const alerts = readFileSync(fileURLToPath(new URL('../../infra/modules/alerts.bicep', import.meta.url)), 'utf8');
const main = readFileSync(fileURLToPath(new URL('../../infra/main.bicep', import.meta.url)), 'utf8');
const host = JSON.parse(readFileSync(fileURLToPath(new URL('../../host.json', import.meta.url)), 'utf8')) as {
  logging?: { applicationInsights?: { samplingSettings?: { isEnabled?: boolean; excludedTypes?: string } } };
};

const alerted: readonly MetricName[] = [
  'webhook_dead_letter',
  'batch_failed',
  'poison_message',
  'poison_messages_waiting',
  'report_unwritten',
  'reconciliation_mismatched',
  'reconciliation_lag_seconds',
  'reconcile_waiting_seconds',
  'reconcile_stuck_days',
  'storage_unavailable',
];

describe('alert rules', () => {
  it.each(alerted)('%s has a rule', (name) => {
    expect(alerts).toMatch(new RegExp(`metric: '${name}'`));
  });

  it('read the value where metricLine writes it, whatever the dimensions hold', () => {
    const line = metricLine('webhook_dead_letter', 3, { partner: 'p 1', event: 'evt_1', url: undefined });
    expect(line.startsWith('metric webhook_dead_letter ')).toBe(true);
    expect(Number(line.split(' ')[2])).toBe(3);
    expect(line).toBe('metric webhook_dead_letter 3 partner=p%201 event=evt_1');
    expect(alerts).toContain('startswith "metric ${rule.metric} "');
    expect(alerts).toContain('todouble(split(message, " ")[2])');
  });

  it('tell HQ when the service writes nothing at all: the watch line missing for a window', () => {
    const silent = /\{[^{}]*name: 'service-silent'[^{}]*\}/.exec(alerts)?.[0] ?? '';
    expect(silent).toMatch(/metric: 'poison_messages_waiting'/);
    expect(silent).toMatch(/summary: 'count\(\)'/);
    expect(silent).toMatch(/operator: 'LessThan'/);
    expect(silent).toMatch(/threshold: 1\s/);
    // Every other rule fires on a value above its threshold; the query takes each rule's own summary and operator.
    expect(alerts.match(/operator: 'GreaterThan'/g)).toHaveLength(alerted.length);
    expect(alerts).toContain('summarize AggregatedValue = ${rule.summary}');
    expect(alerts).toMatch(/operator: rule\.operator/);
  });

  it('find every line: Application Insights never samples traces away', () => {
    // The rules read `traces`; a rule that fires on one line (a dead letter, a poison message) would
    // miss it whenever adaptive sampling dropped the invocation's traces.
    const sampling = host.logging?.applicationInsights?.samplingSettings;
    const excluded = (sampling?.excludedTypes ?? '').split(';').map((type) => type.trim());
    expect(sampling?.isEnabled === false || excluded.includes('Trace')).toBe(true);
  });

  it('every rule sends to the action group, which e-mails the address main.bicep is given', () => {
    expect(alerts).toMatch(/actionGroups:\s*\[\s*actionGroup\.id\s*\]/);
    expect(alerts).toMatch(/emailAddress:\s*alertEmailAddress/);
    expect(main).toMatch(/module alerts 'modules\/alerts\.bicep'/);
    expect(main).toMatch(/alertEmailAddress:\s*alertEmailAddress/);
    expect(main).toMatch(/appInsightsId:\s*appInsights\.id/);
  });
});
