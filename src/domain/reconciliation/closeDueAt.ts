/** Formatters per time zone: building one is far slower than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Milliseconds the zone's wall clock is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

/**
 * When a store-day's daily close is due: the moment the business date ends (the next day's
 * `workday_start` in the store's time zone) plus `graceHours`. Without a usable time zone or
 * workday start the day is taken to end at midnight UTC. A wall time that occurs twice (clocks
 * going back) is its first occurrence; one skipped by clocks going forward is read with the offset
 * from before the change (02:30 in a one-hour gap is 03:30 after it).
 */
export function closeDueAt(
  businessDate: string,
  store: { timeZone?: string | undefined; workdayStart?: string | undefined },
  graceHours: number,
): Date {
  const [year, month, day] = businessDate.split('-').map(Number) as [number, number, number];
  const time = /^(\d{2}):(\d{2})$/.exec(store.workdayStart ?? '');
  const hour = time ? Number(time[1]) : 0;
  const minute = time ? Number(time[2]) : 0;
  const wall = Date.UTC(year, month - 1, day + 1, hour, minute);
  let end = wall;
  if (store.timeZone) {
    try {
      end = wallTimeToInstant(wall, store.timeZone);
    } catch {
      end = wall; // a zone this runtime does not know: midnight-UTC rule
    }
  }
  return new Date(end + graceHours * 3_600_000);
}

/** Far enough from a wall time that the zone's offset there is the one before (after) any change near it. */
const twoDaysMs = 2 * 86_400_000;

/**
 * The instant at which the zone's clock reads `wall` (a wall time written as if it were UTC). Near
 * a change there are two offsets, the one before and the one after; a reading is an instant whose
 * own offset turns it back into `wall`. Both are readings when clocks went back (the first counts);
 * neither when they went forward, and then the offset from before the change is used.
 */
function wallTimeToInstant(wall: number, timeZone: string): number {
  const before = wall - offsetAt(wall - twoDaysMs, timeZone);
  const after = wall - offsetAt(wall + twoDaysMs, timeZone);
  if (before === after) return before;
  const reads = (instant: number): boolean => offsetAt(instant, timeZone) === wall - instant;
  const readings = [before, after].filter(reads);
  return readings.length > 0 ? Math.min(...readings) : before;
}
