/**
 * A timer trigger's schedule in the Functions host's NCRONTAB syntax: six fields
 * `{second} {minute} {hour} {day} {month} {day-of-week}` (five fields: the same without seconds).
 * Each field takes `*`, a number, a range `a-b`, a step `*\/n` or `a-b/n`, and comma lists;
 * months and days of the week also by their English three-letter names. As in cron, when both day
 * fields are restricted a time matches either of them. Times are in UTC (the host's default).
 */
export class NcrontabSchedule {
  private constructor(
    private readonly seconds: ReadonlySet<number>,
    private readonly minutes: ReadonlySet<number>,
    private readonly hours: ReadonlySet<number>,
    private readonly days: ReadonlySet<number>,
    private readonly months: ReadonlySet<number>,
    private readonly weekdays: ReadonlySet<number>,
    private readonly daysRestricted: boolean,
    private readonly weekdaysRestricted: boolean,
    /** Every field but the seconds is `*`, as written. */
    private readonly onlySecondsWritten: boolean,
  ) {}

  static parse(expression: string): NcrontabSchedule {
    const fields = expression.trim().split(/\s+/);
    if (fields.length !== 6 && fields.length !== 5) {
      throw new Error(`Schedule "${expression}" must have 6 fields (second minute hour day month day-of-week) or 5.`);
    }
    const [second = '', minute = '', hour = '', day = '', month = '', weekday = ''] = fields.length === 6 ? fields : ['0', ...fields];
    const field = (text: string, min: number, max: number, names?: readonly string[]): Set<number> =>
      parseField(text, min, max, expression, names);
    return new NcrontabSchedule(
      field(second, 0, 59),
      field(minute, 0, 59),
      field(hour, 0, 23),
      field(day, 1, 31),
      field(month, 1, 12, monthNames),
      // 7 is Sunday too.
      new Set([...field(weekday, 0, 7, dayNames)].map((d) => d % 7)),
      day !== '*' && day !== '?',
      weekday !== '*' && weekday !== '?',
      [minute, hour, day, month, weekday].every((text) => text === '*'),
    );
  }

  /**
   * Whether the host keeps no schedule status for this schedule: one that is `*` in every field but
   * the seconds and names more than one time in the minute after `now` (the WebJobs timer
   * extension's `ShouldDisableScheduleMonitor`, applied when the function is registered). Such a
   * function is handed no `scheduleStatus`.
   */
  isSubMinute(now: Date): boolean {
    if (!this.onlySecondsWritten) return false;
    const end = now.getTime() + 60_000;
    const first = this.next(now);
    return first.getTime() < end && this.next(first).getTime() < end;
  }

  /** The first time strictly after `after` that the schedule names (whole seconds, UTC). */
  next(after: Date): Date {
    const t = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
    // Eight years cover every leap-day combination; a schedule with no match within them has none.
    const limit = after.getTime() + 8 * 366 * 24 * 3600 * 1000;
    while (t.getTime() <= limit) {
      if (!this.months.has(t.getUTCMonth() + 1)) {
        t.setUTCMonth(t.getUTCMonth() + 1, 1);
        t.setUTCHours(0, 0, 0);
        continue;
      }
      if (!this.dayMatches(t)) {
        t.setUTCDate(t.getUTCDate() + 1);
        t.setUTCHours(0, 0, 0);
        continue;
      }
      if (!this.hours.has(t.getUTCHours())) {
        t.setUTCHours(t.getUTCHours() + 1, 0, 0);
        continue;
      }
      if (!this.minutes.has(t.getUTCMinutes())) {
        t.setUTCMinutes(t.getUTCMinutes() + 1, 0);
        continue;
      }
      if (!this.seconds.has(t.getUTCSeconds())) {
        t.setUTCSeconds(t.getUTCSeconds() + 1);
        continue;
      }
      return t;
    }
    throw new Error('The schedule names no time in the next eight years.');
  }

  private dayMatches(t: Date): boolean {
    const byDay = this.days.has(t.getUTCDate());
    const byWeekday = this.weekdays.has(t.getUTCDay());
    if (this.daysRestricted && this.weekdaysRestricted) return byDay || byWeekday;
    return byDay && byWeekday;
  }
}

const monthNames = ['', 'JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const dayNames = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function parseField(text: string, min: number, max: number, expression: string, names?: readonly string[]): Set<number> {
  const values = new Set<number>();
  const fail = (): never => {
    throw new Error(`Schedule "${expression}": cannot read "${text}" (allowed ${min}-${max}).`);
  };
  const value = (part: string): number => {
    const named = names?.indexOf(part.toUpperCase()) ?? -1;
    const number = named > 0 || (named === 0 && names === dayNames) ? named : /^\d+$/.test(part) ? Number(part) : NaN;
    if (!Number.isInteger(number) || number < min || number > max) fail();
    return number;
  };
  for (const item of text.split(',')) {
    const [range, stepText] = item.split('/');
    if (range === undefined || range === '') return fail();
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) fail();
    let from: number;
    let to: number;
    if (range === '*' || range === '?') {
      [from, to] = [min, max];
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      [from, to] = [value(a ?? ''), value(b ?? '')];
      if (from > to) fail();
    } else {
      from = value(range);
      to = stepText === undefined ? from : max;
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}
