// ISO 8601 dates and date-times as ISO 20022 uses them (ISODate = YYYY-MM-DD; ISODateTime = date,
// "T", time with optional fraction, optional "Z" or ±hh:mm offset). Calendar days are checked
// (2024-02-30 fails), with the Gregorian leap-year rule.

import { type Check, pass, reject } from './check.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))?$/;
/** The widest UTC offset in use (ISO 8601 allows ±14:00, e.g. Pacific/Kiritimati). */
const OFFSET_MINUTES_MAX = 14 * 60;

function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function isCalendarDay(y: number, m: number, d: number): boolean {
  return y >= 1 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

export function checkDate(text: string): Check<string> {
  const m = DATE.exec(text);
  if (m === null) return reject('date_format', 'a date is written YYYY-MM-DD');
  if (!isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]))) {
    return reject('date_invalid', `${text} is not a calendar day`);
  }
  return pass(text);
}

export function checkDateTime(text: string): Check<string> {
  const m = DATE_TIME.exec(text);
  if (m === null)
    return reject('datetime_format', 'a date-time is written YYYY-MM-DDThh:mm:ss[.fff][Z|±hh:mm]');
  const [, y, mo, d, h, mi, s, , oh, om] = m;
  if (!isCalendarDay(Number(y), Number(mo), Number(d))) {
    return reject('datetime_invalid', `${text.slice(0, 10)} is not a calendar day`);
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return reject('datetime_invalid', 'the time of day is out of range');
  }
  if (oh !== undefined && (Number(om) > 59 || Number(oh) * 60 + Number(om) > OFFSET_MINUTES_MAX)) {
    return reject('datetime_invalid', 'the UTC offset is out of range');
  }
  return pass(text);
}
