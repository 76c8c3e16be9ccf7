import { zoneOffsetMinutes } from '@/lib/dates';

/**
 * The schedule editor's cron (spec 001 §4, §9): days 0 (Sunday) … 6 and a time of day in the
 * user's time zone become a five-field UTC cron 'minute hour * * days'; 'None' is unscheduled.
 * A time that falls on another UTC day (Tokyo 08:00 is 23:00 UTC the day before) moves every
 * day with it.
 */

export const NO_SCHEDULE = 'None';
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** What the editor holds: days 0–6 (none: 'No Schedule') and 'HH:mm' in `timeZone`. */
export type ScheduleChoice = { days: number[]; time: string };

const MINUTES_PER_DAY = 24 * 60;

function parseTime(time: string): number | null {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(time.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const mod = (n: number, m: number) => ((n % m) + m) % m;

function daysField(days: number[]): string {
  const unique = [...new Set(days.map((d) => mod(d, 7)))].sort((a, b) => a - b);
  return unique.length === 7 ? '*' : unique.join(',');
}

/**
 * The UTC cron for `choice` in `timeZone`, with the zone's offset at `at` (daylight saving is
 * that of the day the schedule is saved). No day → 'None'; a malformed time → null.
 */
export function buildCron(choice: ScheduleChoice, timeZone: string, at: Date = new Date()): string | null {
  if (choice.days.length === 0) return NO_SCHEDULE;
  const local = parseTime(choice.time);
  if (local === null) return null;
  const utc = local - zoneOffsetMinutes(timeZone, at);
  const shift = Math.floor(utc / MINUTES_PER_DAY);
  const minutes = mod(utc, MINUTES_PER_DAY);
  return `${minutes % 60} ${Math.floor(minutes / 60)} * * ${daysField(choice.days.map((d) => d + shift))}`;
}

function parseDays(field: string): number[] | null {
  if (field === '*') return [0, 1, 2, 3, 4, 5, 6];
  const days: number[] = [];
  for (const part of field.split(',')) {
    const range = /^(\d)(?:-(\d))?$/.exec(part);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (from > 7 || to > 7 || to < from) return null;
    for (let d = from; d <= to; d++) days.push(d % 7);
  }
  return [...new Set(days)].sort((a, b) => a - b);
}

/**
 * The editor's choice for a stored cron, back in `timeZone`; 'None' → no days. A cron the editor
 * cannot show (steps, a day of month…) → null, and the page shows it as it is.
 */
export function parseCron(cron: string, timeZone: string, at: Date = new Date()): ScheduleChoice | null {
  if (cron.trim() === NO_SCHEDULE) return { days: [], time: '' };
  const f = cron.trim().split(/\s+/);
  if (f.length !== 5 || f[2] !== '*' || f[3] !== '*' || !/^\d{1,2}$/.test(f[0]) || !/^\d{1,2}$/.test(f[1])) return null;
  const minute = Number(f[0]);
  const hour = Number(f[1]);
  const days = parseDays(f[4]);
  if (minute > 59 || hour > 23 || !days) return null;
  const local = hour * 60 + minute + zoneOffsetMinutes(timeZone, at);
  const shift = Math.floor(local / MINUTES_PER_DAY);
  const minutes = mod(local, MINUTES_PER_DAY);
  const shifted = [...new Set(days.map((d) => mod(d + shift, 7)))].sort((a, b) => a - b);
  return { days: shifted, time: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}` };
}

/** 'Mon, Wed at 09:30' or 'No Schedule'. */
export function describeSchedule(choice: ScheduleChoice | null, cron: string): string {
  if (!choice) return cron;
  if (choice.days.length === 0) return 'No Schedule';
  const days = choice.days.length === 7 ? 'Every day' : choice.days.map((d) => DAY_NAMES[d].slice(0, 3)).join(', ');
  return `${days} at ${choice.time}`;
}
