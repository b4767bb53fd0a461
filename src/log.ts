import pino from 'pino';

// Structured logs go to stderr as JSON lines; stdout is reserved for what people
// (and scripts piping `tools call`) read. Synchronous so a log line written just
// before exit is never lost, and no transport worker (those break in a bundle).
export type Logger = pino.Logger;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function createLogger(level: LogLevel = 'warn'): Logger {
  return pino(
    {
      level,
      base: { name: 'core-agent' },
      // Belt and braces: nothing should log these, but if a caller passes a whole
      // object through, credentials are masked rather than written.
      redact: {
        paths: ['*.authorization', '*.Authorization', '*.token', '*.api_key', '*.apiKey', '*.password', 'headers.*'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 2, sync: true }),
  );
}

/** A logger that drops everything: the default for library use and tests. */
export const silentLogger: Logger = pino({ level: 'silent' });
