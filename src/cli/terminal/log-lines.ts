import type { Paint } from './colors.ts';

const LEVELS: Record<number, { name: string; style: 'red' | 'yellow' | 'cyan' | 'gray' }> = {
  10: { name: 'trace', style: 'gray' },
  20: { name: 'debug', style: 'gray' },
  30: { name: 'info', style: 'cyan' },
  40: { name: 'warn', style: 'yellow' },
  50: { name: 'error', style: 'red' },
  60: { name: 'fatal', style: 'red' },
};

/** Fields every pino line has; the rest are what the line is about. */
const HOUSEKEEPING = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg']);
const MAX_VALUE_CHARS = 200;

/**
 * One pino JSON line as a person reads it on a terminal: `warn  message  key=value …`.
 * A line that is not pino JSON is passed through as it is (never lost).
 */
export function prettyLogLine(line: string, paint: Paint): string {
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  if (typeof obj !== 'object' || obj === null) return `${line.trimEnd()}\n`;
  const level = LEVELS[Number(obj.level)] ?? { name: String(obj.level ?? 'log'), style: 'gray' as const };
  const fields = Object.entries(obj)
    .filter(([k]) => !HOUSEKEEPING.has(k))
    .map(([k, v]) => `${k}=${bounded(typeof v === 'string' ? v : JSON.stringify(v))}`);
  const msg = typeof obj.msg === 'string' ? obj.msg : '';
  return `${paint(level.style, level.name.padEnd(5))} ${msg}${fields.length ? `  ${paint('dim', fields.join(' '))}` : ''}\n`;
}

function bounded(s: string): string {
  const flat = s.replace(/\s+/g, ' ');
  return flat.length > MAX_VALUE_CHARS ? `${flat.slice(0, MAX_VALUE_CHARS - 3)}...` : flat;
}
