import { DATE_FORMATS, DEFAULT_DATE_FORMAT } from '@/config/constants';
import { useSession } from '@/lib/auth';

/**
 * The console's one date formatter (spec 000 §3, §9): the user's date format (MM/DD/YY by
 * default, DD/MM/YY, MMMM/DD/YY, DD/MMMM/YY) in the user's time zone, the time as 'hh:mm A', and
 * the relative forms 'hh:mm A Today', 'hh:mm A Yesterday' and 'Last weekday'.
 */

export type DateFormat = (typeof DATE_FORMATS)[number];
export type DatePreferences = { dateFormat: DateFormat; timeZone?: string };

/** A time as the API sends it: unix seconds, an ISO string, or a Date. */
export type Instant = number | string | Date;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Parts = { year: number; month: number; day: number; hour: number; minute: number };

function toDate(at: Instant): Date | null {
  const d = at instanceof Date ? at : typeof at === 'number' ? new Date(at * 1000) : new Date(at);
  return Number.isNaN(d.getTime()) ? null : d;
}

function validZone(timeZone: string | undefined): string | undefined {
  if (!timeZone) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return timeZone;
  } catch {
    return undefined;
  }
}

/** The calendar fields of `d` in `timeZone` (the browser's when none or unknown). */
function partsIn(d: Date, timeZone: string | undefined): Parts {
  const fields = new Intl.DateTimeFormat('en-US', {
    timeZone: validZone(timeZone),
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
  }).formatToParts(d);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(fields.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute') };
}

/**
 * Minutes `timeZone` is ahead of UTC at `at` (Asia/Kolkata +330, America/New_York −300 or −240
 * with daylight saving); an unknown zone is the browser's.
 */
export function zoneOffsetMinutes(timeZone: string | undefined, at: Date): number {
  const p = partsIn(at, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return Math.round((wall - Math.floor(at.getTime() / 60_000) * 60_000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A day number (days since 1970-01-01) for calendar arithmetic, whatever the zone. */
const dayNumber = (p: Parts) => Date.UTC(p.year, p.month - 1, p.day) / 86_400_000;

function dateOf(p: Parts, format: DateFormat): string {
  const yy = pad(p.year % 100);
  switch (format) {
    case 'DD/MM/YY':
      return `${pad(p.day)}/${pad(p.month)}/${yy}`;
    case 'MMMM/DD/YY':
      return `${MONTHS[p.month - 1]}/${pad(p.day)}/${yy}`;
    case 'DD/MMMM/YY':
      return `${pad(p.day)}/${MONTHS[p.month - 1]}/${yy}`;
    default:
      return `${pad(p.month)}/${pad(p.day)}/${yy}`;
  }
}

/** 'hh:mm A', e.g. '09:05 AM'. */
function clockOf(p: Parts): string {
  return `${pad(p.hour % 12 || 12)}:${pad(p.minute)} ${p.hour < 12 ? 'AM' : 'PM'}`;
}

/** A stored preference as a format this formatter knows (anything else: the default). */
export function dateFormatOf(value: string | null | undefined): DateFormat {
  return (DATE_FORMATS as readonly string[]).includes(value ?? '') ? (value as DateFormat) : DEFAULT_DATE_FORMAT;
}

export const DEFAULT_PREFERENCES: DatePreferences = { dateFormat: DEFAULT_DATE_FORMAT };

/** The date alone, in the user's format: '11/02/26'. Empty for no or a broken time. */
export function formatDate(at: Instant | null | undefined, prefs: DatePreferences = DEFAULT_PREFERENCES): string {
  const d = at === null || at === undefined ? null : toDate(at);
  return d ? dateOf(partsIn(d, prefs.timeZone), prefs.dateFormat) : '';
}

/** Date and time: '11/02/26 08:00 AM'. */
export function formatDateTime(at: Instant | null | undefined, prefs: DatePreferences = DEFAULT_PREFERENCES): string {
  const d = at === null || at === undefined ? null : toDate(at);
  if (!d) return '';
  const p = partsIn(d, prefs.timeZone);
  return `${dateOf(p, prefs.dateFormat)} ${clockOf(p)}`;
}

/**
 * The spec's relative time: 'hh:mm A Today', 'hh:mm A Yesterday', 'Last weekday' within the
 * past week, else the date in the user's format; days are counted in the user's time zone.
 */
export function relativeTime(at: Instant | null | undefined, prefs: DatePreferences = DEFAULT_PREFERENCES, now: Date = new Date()): string {
  const d = at === null || at === undefined ? null : toDate(at);
  if (!d) return '';
  const p = partsIn(d, prefs.timeZone);
  const days = dayNumber(partsIn(now, prefs.timeZone)) - dayNumber(p);
  if (days <= 0) return `${clockOf(p)} Today`;
  if (days === 1) return `${clockOf(p)} Yesterday`;
  if (days < 7) return `Last ${WEEKDAYS[new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay()]}`;
  return dateOf(p, prefs.dateFormat);
}

/** The signed-in user's date preferences (profile settings: date format and time zone). */
export function useDatePreferences(): DatePreferences {
  const { user } = useSession();
  return { dateFormat: dateFormatOf(user?.date_format), timeZone: user?.timezone ?? undefined };
}

/** The three formatters bound to the signed-in user's preferences. */
export function useDates() {
  const prefs = useDatePreferences();
  return {
    date: (at: Instant | null | undefined) => formatDate(at, prefs),
    dateTime: (at: Instant | null | undefined) => formatDateTime(at, prefs),
    relative: (at: Instant | null | undefined) => relativeTime(at, prefs),
  };
}
