/** Shapes of the HQ API (docs/hq-api.md). Fields the console does not use are left out. */

export type DayStatus = 'NOT_RECEIVED' | 'RECEIVED' | 'MATCHED' | 'MISMATCHED';
export const dayStatuses: readonly DayStatus[] = ['NOT_RECEIVED', 'RECEIVED', 'MATCHED', 'MISMATCHED'];

export type Role = 'viewer' | 'admin';

export interface WhoAmI {
  readonly operator: string;
  readonly role: Role;
  readonly key_id: string;
  readonly expires_at: string | null;
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly continuation: string | null;
}

export interface GridDay {
  readonly business_date: string;
  readonly status: DayStatus;
  readonly overdue: boolean;
  readonly close_due_at: string;
  readonly close_received_at: string | null;
  readonly checked_at: string | null;
  readonly differences: readonly string[];
}

export interface GridRow {
  readonly partner_id: string;
  readonly store_id: string;
  readonly store_name: string | null;
  readonly currency: string | null;
  readonly time_zone: string | null;
  readonly active: boolean;
  readonly days: readonly GridDay[];
}

export type StatusCounts = Readonly<Record<DayStatus | 'overdue', number>>;

export interface GridPage extends Page<GridRow> {
  readonly counts: StatusCounts;
}

export interface ComparisonRow {
  readonly field: string;
  readonly expected: string;
  readonly actual: string;
  /** actual − expected; null when a figure is not a number. */
  readonly difference: string | null;
  readonly differs: boolean;
}

export interface Diagnosis {
  readonly missing_batch_seqs: readonly number[];
  readonly missing_batch_count: number;
  readonly unexpected_batch_seqs: readonly number[];
  readonly batches_after_close: number;
  readonly unmapped_transaction_types: readonly { readonly source_code: string; readonly transaction_count: number }[];
  readonly unknown_payment_types: readonly { readonly payment_type: string; readonly payment_count: number }[];
  readonly hints: readonly string[];
}

export interface DayBatch {
  readonly batch_id: string;
  readonly batch_seq: number;
  readonly received_at: string | null;
  readonly record_count: number;
  readonly after_close: boolean;
  readonly failed: boolean;
}

export interface StoreDay {
  readonly partner_id: string;
  readonly store_id: string;
  readonly business_date: string;
  readonly status: DayStatus;
  readonly overdue: boolean;
  readonly close_due_at: string;
  readonly checked_at: string | null;
  readonly next_run_due_at: string | null;
  readonly currency: string | null;
  readonly close: {
    readonly batch_id: string;
    readonly received_at: string;
    readonly closed_at: string;
    readonly batch_count: number;
    readonly currency: string;
  } | null;
  readonly comparison: readonly ComparisonRow[];
  readonly differences: readonly string[];
  readonly diagnosis: Diagnosis | null;
  readonly batches: readonly DayBatch[];
  readonly batches_truncated?: boolean;
}

export interface UncommittedBatch {
  readonly partner_id: string;
  readonly batch_id: string;
  readonly kind: string;
  readonly state: 'PENDING' | 'FAILED';
  readonly created_at: string;
  readonly failed_at: string | null;
  readonly failure: string | null;
}

/** A webhook delivery given up (GET /webhook-failures): who, what, how often, why; the endpoint's origin only. */
export interface WebhookFailure {
  readonly partner_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly target_origin: string;
  readonly attempts: number;
  readonly last_error_class: string;
  readonly last_status: number | null;
  readonly created_at: string;
  readonly first_attempt_at: string | null;
  readonly last_attempt_at: string | null;
  readonly dead_lettered_at: string;
}

export interface WebhookFailureList {
  readonly items: readonly WebhookFailure[];
  readonly items_truncated?: true;
}

export interface Partner {
  readonly partner_id: string;
  readonly name: string;
  readonly status: 'ACTIVE' | 'INACTIVE';
  readonly rate_limit_per_minute: number;
  readonly rate_limit_is_default: boolean;
  readonly created_at: string;
}

export interface RegisteredStore {
  readonly store_id: string;
  readonly registered_at: string | null;
  readonly store_name: string | null;
  readonly currency: string | null;
  readonly time_zone: string | null;
  readonly workday_start: string | null;
  /** The partner's master data status. */
  readonly status: string | null;
  /** HQ's registration: a RETIRED store takes nothing the partner sends. */
  readonly registration_status: 'ACTIVE' | 'RETIRED';
  readonly retired_at: string | null;
}

export interface PartnerKey {
  readonly key_id: string;
  readonly status: 'ACTIVE' | 'EXPIRED' | 'REVOKED';
  readonly created_at: string;
  readonly expires_at: string | null;
  readonly revoked_at: string | null;
}

export interface PaymentDirection {
  readonly payment_type: string;
  readonly direction: 1 | -1 | 0;
}

export interface SalesItem {
  readonly partner_id?: string;
  readonly store_id?: string;
  readonly business_date?: string;
  readonly currency: string;
  readonly net_sales: string;
  readonly tax_amount: string;
  readonly tip_amount: string;
  readonly transaction_count: number;
}

export interface UnmappedItem {
  readonly partner_id: string;
  readonly source_transaction_type: string;
  readonly transaction_count: number;
  readonly first_business_date: string;
  readonly last_business_date: string;
  readonly by_currency: readonly {
    readonly currency: string;
    readonly transaction_count: number;
    readonly net_sales: string;
    readonly tax_amount: string;
    readonly tip_amount: string;
  }[];
}

export interface StoreRegistration {
  readonly partner_id: string;
  readonly registered: readonly string[];
  readonly already_registered: readonly string[];
}
