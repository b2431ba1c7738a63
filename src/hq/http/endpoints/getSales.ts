import type { SalesGroupKey } from '../../../services/reports/SalesQuery.js';
import { requireDateRange } from '../../services/requireDateRange.js';
import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** The cursor's fields: partner, store, standard type, day, currency (absent keys are empty). */
const fields = ['p', 's', 't', 'd', 'c'] as const;

/** The cursor's field naming the summing its page was cut from (ReportTotals: `summedAt`, epoch ms). */
const summedAtField = 'n';

/** GET /hq/v1/sales: sales totals per group and currency, one page. */
export const getSales: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('sales', request.query);
  // The schema lets only known keys through; a key named twice groups once.
  const groupBy = [...new Set(query.group_by.split(','))] as SalesGroupKey[];
  const after = decodeContinuation(request, query.continuation, fields, [summedAtField]);
  // Existence after every check of the query, the range's included (docs/hq-api.md, order of checks).
  requireDateRange(query.from, query.to, hq.clock());
  await hq.directory.requireFilterPartner(query.partner_id);
  const page = await hq.reports.salesPage({
    from: query.from,
    to: query.to,
    groupBy,
    partnerId: query.partner_id,
    limit: query.limit,
    after: after && fields.map((f) => after[f]),
    summedAt: summedAtOf(after?.[summedAtField]),
  });
  const next = page.next;
  return {
    status: 200,
    body: {
      from: query.from,
      to: query.to,
      group_by: groupBy,
      items: page.items,
      continuation: encodeContinuation(
        request,
        next && { ...Object.fromEntries(fields.map((f, i) => [f, next[i] ?? ''])), [summedAtField]: String(page.summedAt) },
      ),
    },
  };
};

/**
 * The summing a continuation names; a value that is not a whole number names none, so the page is
 * summed afresh (the cursor's keys alone still say where it starts).
 */
function summedAtOf(value: string | undefined): number | undefined {
  return value !== undefined && /^\d{1,16}$/.test(value) ? Number(value) : undefined;
}
