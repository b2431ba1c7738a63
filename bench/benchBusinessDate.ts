/** The business date of the benchmark's store-days, unless a measurement gives each push a date of its own. */
export const benchBusinessDate = '2026-03-01';
