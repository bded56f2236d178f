import pino, { type Logger } from 'pino';

/**
 * JSON logs. The edge logs chosen fields only (ids, action, status, timing),
 * never headers or bodies; the redact list is a second line of defence for
 * anything that slips into an `err` or a binding by mistake.
 */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { svc: 'tas' },
      redact: {
        paths: ['authorization', '*.authorization', 'headers', '*.headers', 'body', '*.body', 'token', '*.token', 'secret', '*.secret', 'password', '*.password', 'err.config', 'err.response'],
        censor: '[redacted]',
      },
    },
    destination ?? pino.destination({ sync: false }),
  );
}

export type { Logger };
