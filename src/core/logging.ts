import type { LoggerOptions } from 'pino';

/** JSON lines for machines; pretty lines when a person watches a terminal. Secrets never reach the log. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  };
}
