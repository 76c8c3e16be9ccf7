const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function startOfDay(d: Date) {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** 'hh:mm A', e.g. '09:05 AM'. */
export function clockTime(d: Date) {
  const h = d.getHours() % 12 || 12;
  return `${String(h).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
}

/**
 * The spec's relative time (spec 000 §9): 'hh:mm A Today', 'hh:mm A Yesterday', 'Last weekday'
 * within the past week, else MM/DD/YY. `at` is unix seconds, as the API sends times.
 */
export function relativeTime(at: number, now: Date = new Date()): string {
  const d = new Date(at * 1000);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
  if (days <= 0) return `${clockTime(d)} Today`;
  if (days === 1) return `${clockTime(d)} Yesterday`;
  if (days < 7) return `Last ${WEEKDAYS[d.getDay()]}`;
  const yy = String(d.getFullYear() % 100).padStart(2, '0');
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${yy}`;
}
