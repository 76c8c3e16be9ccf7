import { describe, expect, it } from 'vitest';

import { dateFormatOf, formatDate, formatDateTime, relativeTime } from '@/lib/dates';

describe('the console date formatter', () => {
  // Friday 20 Nov 2026, 15:00 UTC.
  const now = new Date(Date.UTC(2026, 10, 20, 15, 0, 0));
  const utc = (...a: [number, number, number, number, number]) => Date.UTC(...a) / 1000;
  const inUtc = { dateFormat: 'MM/DD/YY' as const, timeZone: 'UTC' };

  it("says 'hh:mm A Today', 'hh:mm A Yesterday', 'Last weekday', then the date (spec 000 §9)", () => {
    expect(relativeTime(utc(2026, 10, 20, 9, 5), inUtc, now)).toBe('09:05 AM Today');
    expect(relativeTime(utc(2026, 10, 19, 13, 30), inUtc, now)).toBe('01:30 PM Yesterday');
    expect(relativeTime(utc(2026, 10, 16, 8, 0), inUtc, now)).toBe('Last Monday');
    expect(relativeTime(utc(2026, 10, 2, 8, 0), inUtc, now)).toBe('11/02/26');
    expect(relativeTime(utc(2026, 10, 20, 0, 0), inUtc, now)).toBe('12:00 AM Today');
  });

  it("writes the user's date format: MM/DD/YY (default), DD/MM/YY, MMMM/DD/YY, DD/MMMM/YY", () => {
    const at = utc(2026, 1, 3, 14, 7);
    expect(formatDate(at, { dateFormat: 'MM/DD/YY', timeZone: 'UTC' })).toBe('02/03/26');
    expect(formatDate(at, { dateFormat: 'DD/MM/YY', timeZone: 'UTC' })).toBe('03/02/26');
    expect(formatDate(at, { dateFormat: 'MMMM/DD/YY', timeZone: 'UTC' })).toBe('February/03/26');
    expect(formatDate(at, { dateFormat: 'DD/MMMM/YY', timeZone: 'UTC' })).toBe('03/February/26');
    expect(formatDateTime(at, { dateFormat: 'DD/MM/YY', timeZone: 'UTC' })).toBe('03/02/26 02:07 PM');
    expect(dateFormatOf(null)).toBe('MM/DD/YY');
    expect(dateFormatOf('YYYY-MM-DD')).toBe('MM/DD/YY');
    expect(dateFormatOf('DD/MMMM/YY')).toBe('DD/MMMM/YY');
  });

  it("counts days and hours in the user's time zone, not the browser's", () => {
    // 23:30 UTC on the 19th is already the 20th in Tokyo, and still the 19th in New York.
    // At noon UTC on the 20th it is the 20th in both.
    const noon = new Date(Date.UTC(2026, 10, 20, 12, 0));
    const late = utc(2026, 10, 19, 23, 30);
    expect(relativeTime(late, { dateFormat: 'MM/DD/YY', timeZone: 'Asia/Tokyo' }, noon)).toBe('08:30 AM Today');
    expect(relativeTime(late, { dateFormat: 'MM/DD/YY', timeZone: 'America/New_York' }, noon)).toBe('06:30 PM Yesterday');
    expect(formatDateTime(late, { dateFormat: 'MM/DD/YY', timeZone: 'Asia/Kolkata' })).toBe('11/20/26 05:00 AM');
    // An unknown zone falls back to the browser's rather than failing.
    expect(formatDate(late, { dateFormat: 'MM/DD/YY', timeZone: 'Mars/Olympus' })).toMatch(/^11\/(19|20)\/26$/);
  });

  it('reads unix seconds, ISO strings and Dates; nothing for no or a broken time', () => {
    expect(formatDateTime('2026-11-02T08:00:00Z', inUtc)).toBe('11/02/26 08:00 AM');
    expect(formatDateTime(new Date(Date.UTC(2026, 10, 2, 20, 0)), inUtc)).toBe('11/02/26 08:00 PM');
    expect(formatDateTime(null, inUtc)).toBe('');
    expect(formatDateTime('not a date', inUtc)).toBe('');
  });
});
