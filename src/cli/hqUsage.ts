export const hqUsage = `HQ tool of the POS ingestion service. Uses the same storage settings as the service
(AzureWebJobsStorage, or the identity-based AzureWebJobsStorage__* settings with az login).

Usage: npm run hq -- <command>

  partner create <partner_id> [--name "<name>"]
  partner deactivate <partner_id>
  partner activate <partner_id>
  partner set-rate-limit <partner_id> <calls per minute|default>
  partner list
  key issue <partner_id> [--expires <ISO date>] [AZURE]   prints the new key alone on the last line
  key revoke <partner_id> <key_id> [AZURE]
  key list <partner_id>                            ids, created, expiry, status; never the key
  store register <partner_id> <store_id> [<store_id> ...]
  store list <partner_id>                          store ids, ACTIVE or RETIRED, registered, retired
  store retire <partner_id> <store_id>             refuses what the partner sends for the store; keeps its data
  store reactivate <partner_id> <store_id>         takes the partner's data for a retired store again
  payment-type set-direction <partner_id> <payment_type> <1|-1|0>
  reconciliation list [--partner <partner_id>] [--status RECEIVED|MATCHED|MISMATCHED] [--date YYYY-MM-DD]
  reconciliation rerun <partner_id> [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                                                   reconciles its reconciled store-days again (after a remap)
  reports rebuild [--partner <partner_id>] [--from YYYY-MM-DD] [--to YYYY-MM-DD]
                                                   rewrites the report files of reconciled store-days
  reports download <folder> [--partner <partner_id>]
                                                   copies the report files into a folder, for DuckDB, Spark or pandas
  batch list --state failed|pending|committed [--partner <partner_id>]
                                                   failed: refused by storage after validation, never retried
  operator issue <name> [--role viewer|admin] [--expires <ISO date>] [AZURE]   HQ API key, alone on the last line
  operator list                                    names, key ids, roles, status, expiry; never a key
  operator revoke <name> <key_id> [AZURE]
  webhook failures [--partner <partner_id>] [--limit <1-500>]
                                                   dead-lettered event deliveries, newest first (default 100);
                                                   ids, error class, attempts and the endpoint's origin only
  webhook resend <partner_id> <event_id>           sends a dead-lettered event again (24 hours of attempts)
  webhook dismiss <partner_id> <event_id>          drops a dead-lettered event
  webhook list                                     every partner's endpoint: origin, event types, dates, when disabled
  webhook show <partner_id>                        the endpoint's origin, event types and dates; never the secret
  webhook remove <partner_id>                      removes the endpoint (after a key was stolen, say)

AZURE: --function-app <name> --resource-group <rg> [--subscription <id>] (or the settings
POS_FUNCTION_APP, POS_RESOURCE_GROUP, AZURE_SUBSCRIPTION_ID) also sets or deletes the key as a
host key of that function app, signed in as you (az login); refused while the storage settings
resolve to the local storage emulator. The storage a command acts on is printed on stderr first.
Dates: YYYY-MM-DD, a day that exists. --expires also takes a date-time with its zone
(2027-01-01T09:00Z, 2027-01-01T09:00:00+01:00); a date alone is that day at 00:00 UTC.
Partner ids are case-insensitive.

Exit codes: 0 done, 1 refused or failed, 2 wrong usage.`;
