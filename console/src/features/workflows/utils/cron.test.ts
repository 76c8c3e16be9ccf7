import { describe, expect, it } from 'vitest';

import { buildCron, describeSchedule, NO_SCHEDULE, parseCron } from '@/features/workflows/utils/cron';
import { zoneOffsetMinutes } from '@/lib/dates';

const WINTER = new Date(Date.UTC(2026, 0, 15, 12));
const SUMMER = new Date(Date.UTC(2026, 6, 15, 12));

describe('zone offsets', () => {
  it.each([
    ['UTC', WINTER, 0],
    ['Asia/Kolkata', WINTER, 330],
    ['Asia/Tokyo', SUMMER, 540],
    ['America/New_York', WINTER, -300],
    ['America/New_York', SUMMER, -240],
    ['Europe/Berlin', SUMMER, 120],
  ])('%s at %s is %i minutes', (zone, at, offset) => {
    expect(zoneOffsetMinutes(zone, at)).toBe(offset);
  });
});

describe('buildCron', () => {
  it.each([
    // zone, days, time, at, cron
    ['UTC', [1, 3, 5], '09:30', WINTER, '30 9 * * 1,3,5'],
    ['Asia/Kolkata', [1], '10:00', WINTER, '30 4 * * 1'],
    // Tokyo 08:00 is 23:00 UTC the day before: Sunday → Saturday, Monday → Sunday.
    ['Asia/Tokyo', [0, 1], '08:00', WINTER, '0 23 * * 0,6'],
    // New York 21:00 is 02:00 UTC the next day (winter), 01:00 in summer: Saturday → Sunday.
    ['America/New_York', [5, 6], '21:00', WINTER, '0 2 * * 0,6'],
    ['America/New_York', [5, 6], '21:00', SUMMER, '0 1 * * 0,6'],
    ['Europe/Berlin', [2], '00:15', SUMMER, '15 22 * * 1'],
    ['UTC', [0, 1, 2, 3, 4, 5, 6], '00:00', WINTER, '0 0 * * *'],
  ])('%s %j %s → %s', (zone, days, time, at, cron) => {
    expect(buildCron({ days, time }, zone, at)).toBe(cron);
  });

  it("is 'None' without days and null for a malformed time", () => {
    expect(buildCron({ days: [], time: '09:00' }, 'UTC')).toBe(NO_SCHEDULE);
    expect(buildCron({ days: [1], time: '25:00' }, 'UTC')).toBeNull();
    expect(buildCron({ days: [1], time: '' }, 'UTC')).toBeNull();
  });
});

describe('parseCron', () => {
  it.each([
    ['Asia/Tokyo', [0, 1], '08:00'],
    ['America/New_York', [5, 6], '21:00'],
    ['Asia/Kolkata', [2, 4], '23:45'],
    ['UTC', [3], '12:00'],
  ])('turns the cron built for %s %j %s back into the same choice', (zone, days, time) => {
    const cron = buildCron({ days, time }, zone, WINTER)!;
    expect(parseCron(cron, zone, WINTER)).toEqual({ days, time });
  });

  it("reads 'None', ranges and 7 as Sunday, and refuses what the editor cannot show", () => {
    expect(parseCron('None', 'UTC')).toEqual({ days: [], time: '' });
    expect(parseCron('0 6 * * 1-5', 'UTC', WINTER)).toEqual({ days: [1, 2, 3, 4, 5], time: '06:00' });
    expect(parseCron('0 6 * * 7', 'UTC', WINTER)).toEqual({ days: [0], time: '06:00' });
    expect(parseCron('*/5 * * * *', 'UTC')).toBeNull();
    expect(parseCron('0 6 1 * *', 'UTC')).toBeNull();
  });

  it('describes a choice', () => {
    expect(describeSchedule({ days: [1, 3], time: '09:30' }, '')).toBe('Mon, Wed at 09:30');
    expect(describeSchedule({ days: [], time: '' }, 'None')).toBe('No Schedule');
    expect(describeSchedule(null, '*/5 * * * *')).toBe('*/5 * * * *');
  });
});
