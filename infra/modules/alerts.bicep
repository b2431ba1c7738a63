// HQ's alerts: log search rules over the service's telemetry in Application Insights, each sending
// to one action group that e-mails HQ. The service writes each figure as a log line of its own
// form, `metric <name> <value> key=value ...` (src/observability/Telemetry.ts), kept in `traces`.

@description('Prefix of the alert resource names.')
param namePrefix string

@description('Azure region of the alert rules (the action group itself is global).')
param location string

@description('Tags of every resource.')
param tags object

@description('Resource id of the Application Insights component the rules query.')
param appInsightsId string

@description('E-mail address the alerts are sent to.')
param alertEmailAddress string

@description('Seconds a reconciliation may run behind its due time before HQ is told.')
@minValue(60)
param reconciliationLagAlertSeconds int

resource actionGroup 'Microsoft.Insights/actionGroups@2023-01-01' = {
  name: '${namePrefix}-hq-alerts'
  location: 'Global'
  tags: tags
  properties: {
    groupShortName: 'pos-hq'
    enabled: true
    emailReceivers: [
      {
        name: 'hq'
        emailAddress: alertEmailAddress
        useCommonAlertSchema: true
      }
    ]
  }
}

// One rule per figure: what the line is called, how its values add up over the window (`summary`,
// a KQL aggregate of `value`), and when HQ is told. `metricLine` values are numbers; dimensions are
// ignored here and read when investigating.
var rules = [
  {
    name: 'webhook-dead-letters'
    metric: 'webhook_dead_letter'
    description: 'A partner webhook event was given up after 24 hours of retries (or a 410). npm run hq -- webhook failures lists them.'
    severity: 2
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'batches-failed'
    metric: 'batch_failed'
    description: 'A batch ended in the failed state: its rows are not counted and the partner must resend it.'
    severity: 2
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'storage-unavailable'
    metric: 'storage_unavailable'
    description: 'More than 20 requests in 15 minutes were answered 503 because storage did not answer, was busy (throttling) or refused the app\'s identity; partners are sending again. The lines name the route, status and storage code.'
    severity: 2
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 20
  }
  {
    name: 'poison-messages'
    metric: 'poison_message'
    description: 'A queue message failed its last allowed attempt and went to a -poison queue, where it waits for HQ.'
    severity: 1
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'poison-messages-waiting'
    metric: 'poison_messages_waiting'
    description: 'A -poison queue holds messages (counted every 5 minutes, those moved there by a crash or a timeout of their last attempt included): its store-days, events or reruns wait for HQ. README, Operations notes.'
    severity: 1
    summary: 'max(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'reconciliations-not-started'
    metric: 'reconcile_waiting_seconds'
    description: 'Reconcile messages that could be taken have waited past their due time by more than the configured lag without being taken (counted every 5 minutes): the queue trigger is not running (its connection or role) or every instance is stuck. Look at the function app and its log.'
    severity: 2
    summary: 'max(value)'
    operator: 'GreaterThan'
    threshold: reconciliationLagAlertSeconds
  }
  {
    name: 'reconciliations-stuck'
    metric: 'reconcile_stuck_days'
    description: 'Store-days are still RECEIVED with no run to come (counted hourly, so this repeats hourly until they are reconciled): their reconcile message is gone, expired after 7 days in a poison queue, deleted, or cleared with its queue. The watchStuckDays log line names them; fix the cause, then npm run hq -- reconciliation rerun <partner>. README, Operations notes.'
    severity: 2
    summary: 'max(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    // The queue watch writes a line per poison queue every 5 minutes whatever it finds: none in the
    // window means nothing runs (summarize over no rows still gives one row, its count 0).
    name: 'service-silent'
    metric: 'poison_messages_waiting'
    description: 'The service wrote no poison_messages_waiting line for 15 minutes, which its timer writes every 5: the app is stopped, fails to start (a missing or wrong setting), or cannot reach its storage. Look at the function app and its log.'
    severity: 1
    summary: 'count()'
    operator: 'LessThan'
    threshold: 1
  }
  {
    name: 'reports-unwritten'
    metric: 'report_unwritten'
    description: 'A reconciled store-day got no new report files (REPORT_DATA_UNWRITABLE or REPORT_SOURCE_INCONSISTENT in the log): BI reads its earlier files, or none. Fix the cause, then npm run hq -- reports rebuild.'
    severity: 2
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'days-mismatched'
    metric: 'reconciliation_mismatched'
    description: 'A store-day reconciled MISMATCHED: npm run hq -- reconciliation list --status MISMATCHED.'
    severity: 3
    summary: 'sum(value)'
    operator: 'GreaterThan'
    threshold: 0
  }
  {
    name: 'reconciliation-lag'
    metric: 'reconciliation_lag_seconds'
    description: 'Reconciliations run later than their due time by more than the configured lag.'
    severity: 2
    summary: 'max(value)'
    operator: 'GreaterThan'
    threshold: reconciliationLagAlertSeconds
  }
]

resource alertRules 'Microsoft.Insights/scheduledQueryRules@2023-12-01' = [
  for rule in rules: {
    name: '${namePrefix}-${rule.name}'
    location: location
    tags: tags
    kind: 'LogAlert'
    properties: {
      displayName: '${namePrefix} ${rule.name}'
      description: rule.description
      severity: rule.severity
      enabled: true
      scopes: [
        appInsightsId
      ]
      evaluationFrequency: 'PT5M'
      windowSize: 'PT15M'
      criteria: {
        allOf: [
          {
            query: 'traces | where message startswith "metric ${rule.metric} " | extend value = todouble(split(message, " ")[2]) | summarize AggregatedValue = ${rule.summary}'
            timeAggregation: 'Maximum'
            metricMeasureColumn: 'AggregatedValue'
            operator: rule.operator
            threshold: rule.threshold
            failingPeriods: {
              numberOfEvaluationPeriods: 1
              minFailingPeriodsToAlert: 1
            }
          }
        ]
      }
      autoMitigate: true
      actions: {
        actionGroups: [
          actionGroup.id
        ]
      }
    }
  }
]

@description('Resource id of the action group, for further rules.')
output actionGroupId string = actionGroup.id
