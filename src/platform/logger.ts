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
        paths: [
          'authorization',
          '*.authorization',
          'headers',
          '*.headers',
          'body',
          '*.body',
          'token',
          '*.token',
          'secret',
          '*.secret',
          'password',
          '*.password',
          'err.config',
          'err.response',
        ],
        censor: '[redacted]',
      },
      serializers: { err: safeError, error: safeError },
    },
    destination ?? defaultDestination(),
  );
}

function defaultDestination(): pino.DestinationStream {
  if (process.stdout.isTTY) return pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,svc' });
  return pino.destination({ sync: false });
}

/**
 * Errors as they may be logged (issue 40). A database error carries what the
 * statement was given: slonik's `values` and `row`, PostgreSQL's `detail`
 * ("Key (value)=(...) already exists"), `where`, and messages that quote the
 * offending input ("invalid input syntax for type uuid: \"...\""), in the
 * error and in each of its causes. None of that reaches a log: those fields
 * are dropped, and quoted text in messages and stacks is replaced, at every
 * depth. What stays says what failed and where: type, code, constraint,
 * table, column, the statement's text (parameterised) and the stack.
 */
const DROPPED_ERROR_FIELDS = ['values', 'row', 'detail', 'where', 'hint', 'internalQuery', 'parameters', 'issues', 'input', 'received'];
const QUOTED = /"[^"\n]{0,4096}"|'[^'\n]{0,4096}'/g;

export function safeError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  return scrub(pino.stdSerializers.err(err), 0);
}

function scrub(e: Record<string, unknown>, depth: number): Record<string, unknown> {
  for (const field of DROPPED_ERROR_FIELDS) delete e[field];
  for (const field of ['message', 'stack']) if (typeof e[field] === 'string') e[field] = e[field].replace(QUOTED, '"…"');
  for (const [key, value] of Object.entries(e)) {
    if (depth < 5 && value !== null && typeof value === 'object' && !Array.isArray(value) && ('message' in value || 'type' in value)) {
      e[key] = scrub(value, depth + 1);
    }
  }
  return e;
}

export type { Logger };
