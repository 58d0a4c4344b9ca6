import type { LoggerOptions } from 'pino';

/**
 * JSON lines for machines; pretty lines when a person watches a terminal
 * outside production (a container run with a TTY still logs JSON). Secrets
 * never reach the log.
 */
export function loggerOptions(level: string): LoggerOptions {
  const pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production';
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  };
}
