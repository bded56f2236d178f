import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

/**
 * JSON logs. The edge logs chosen fields only (ids, action, status, timing),
 * never headers or bodies; the redact list is a second line of defence for
 * anything that slips into an `err` or a binding by mistake.
 *
 * On a terminal (stdout is a TTY and no destination was given) the same
 * records are pretty-printed for a person; anywhere else (a pipe, a file, a
 * log collector) they stay one JSON object per line.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { svc: 'tas' },
      redact: {
        paths: ['authorization', '*.authorization', 'headers', '*.headers', 'body', '*.body', 'token', '*.token', 'secret', '*.secret', 'password', '*.password', 'err.config', 'err.response'],
        censor: '[redacted]',
      },
    },
    destination ?? defaultDestination(),
  );
}

function defaultDestination(): pino.DestinationStream {
  if (process.stdout.isTTY) return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,svc' });
  return pino.destination({ sync: false });
}

export type { Logger };
