import { TRUNCATION_SUFFIX } from '@/config/constants';

/**
 * Cuts `text` to `max` characters and ends the cut text with '...' (spec 000 §9: 22 for insight
 * names, 25 for insight descriptions, 75 for project rows). Text that fits is left alone.
 */
export function truncate(text: string | null | undefined, max: number): string {
  const value = text ?? '';
  return value.length > max ? `${value.slice(0, max)}${TRUNCATION_SUFFIX}` : value;
}

/** 'N View' for one, 'N Views' otherwise (spec 000 §2). */
export function viewCountLabel(count: number | null | undefined): string {
  const n = count ?? 0;
  return `${n} ${n === 1 ? 'View' : 'Views'}`;
}
