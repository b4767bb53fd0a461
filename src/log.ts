import type pino from 'pino';
import type { SecretValues } from './util/secret-values.ts';

/**
 * Structured logs: pino JSON lines on stderr (stdout is reserved for what people
 * and scripts read). pino itself is loaded on the first line actually logged —
 * a short command that logs nothing does not pay its start-up cost. Lines logged
 * while it loads are queued with their own timestamps and written in order;
 * `flushLogs()` (awaited before the CLI exits) makes sure none is lost.
 */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
type Method = Exclude<LogLevel, 'silent'>;
type LogFn = (obj: Record<string, unknown> | string, msg?: string) => void;
export type Logger = Record<Method, LogFn>;

const SEVERITY: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };
const METHODS: readonly Method[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

const noop: LogFn = () => undefined;
/** Drops everything: the default for library use and tests. */
export const silentLogger: Logger = Object.fromEntries(METHODS.map((m) => [m, noop])) as Logger;

const pendingLoads = new Set<Promise<void>>();

/**
 * `sink`: each JSON line goes there instead of stderr (a terminal pretty-prints them; see cli/terminal/log-lines.ts).
 * `secrets`: values masked in every line as it is written, whatever field or message carried one.
 */
export function createLogger(level: LogLevel = 'warn', sink?: (line: string) => void, secrets?: SecretValues): Logger {
  if (level === 'silent') return silentLogger;
  let instance: pino.Logger | null = null;
  let queuedTime: number | null = null;
  const queue: Array<{ method: Method; obj: Record<string, unknown> | string; msg: string | undefined; time: number }> = [];
  let loading: Promise<void> | null = null;

  const load = () => {
    loading ??= import('pino').then(({ default: createPino }) => {
      instance = createPino(
        {
          level,
          base: { name: 'core-agent' },
          timestamp: () => `,"time":${queuedTime ?? Date.now()}`,
          // Belt and braces: nothing should log these, but if a caller passes a
          // whole object through, credentials are masked rather than written.
          redact: {
            paths: ['*.authorization', '*.Authorization', '*.token', '*.api_key', '*.apiKey', '*.password', 'headers.*'],
            censor: '[redacted]',
          },
        },
        // Synchronous, so a line written just before exit is never lost; no
        // transport worker (those load files by path and break in a bundle).
        masked(sink ?? destinationWriter(createPino.destination({ dest: 2, sync: true })), secrets),
      );
      for (const q of queue.splice(0)) {
        queuedTime = q.time;
        write(instance, q.method, q.obj, q.msg);
      }
      queuedTime = null;
    });
    pendingLoads.add(loading);
    return loading;
  };

  const logger = {} as Logger;
  for (const method of METHODS) {
    if (SEVERITY[method] < SEVERITY[level]) {
      logger[method] = noop;
      continue;
    }
    logger[method] = (obj, msg) => {
      if (instance) write(instance, method, obj, msg);
      else {
        queue.push({ method, obj, msg, time: Date.now() });
        void load();
      }
    };
  }
  return logger;
}

function destinationWriter(d: { write(line: string): unknown }): (line: string) => void {
  return (line) => void d.write(line);
}

/** The line as written, with every known secret masked (the set may grow while the logger lives). */
function masked(sink: (line: string) => void, secrets: SecretValues | undefined): { write(line: string): void } {
  return { write: secrets ? (line) => sink(secrets.mask(line)) : sink };
}

function write(p: pino.Logger, method: Method, obj: Record<string, unknown> | string, msg: string | undefined): void {
  if (typeof obj === 'string') p[method](obj);
  else p[method](obj, msg);
}

/** Wait until every queued log line has been written. */
export async function flushLogs(): Promise<void> {
  await Promise.all(pendingLoads);
}

/** A logger that adds `fields` to every line (pino's child, for any Logger). */
export function withFields(logger: Logger, fields: Record<string, unknown>): Logger {
  return Object.fromEntries(
    METHODS.map((m) => [
      m,
      (obj: Record<string, unknown> | string, msg?: string) =>
        logger[m](typeof obj === 'string' ? { ...fields } : { ...fields, ...obj }, typeof obj === 'string' ? obj : msg),
    ]),
  ) as Logger;
}
