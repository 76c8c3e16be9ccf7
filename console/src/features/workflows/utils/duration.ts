/**
 * A duration as the lists show it (spec 001 §9): under a minute with two decimals ('42.37s'),
 * else hours, minutes and whole seconds ('1h 2m 3s', '5m 0s'); nothing known → '-'.
 */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '-';
  if (seconds < 60) return `${seconds.toFixed(2)}s`;
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return h > 0 ? `${h}h ${m}m ${s}s` : `${m}m ${s}s`;
}
