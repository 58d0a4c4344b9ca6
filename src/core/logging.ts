import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { stdSerializers, type LoggerOptions } from 'pino';

const REDACTED = '[redacted]';

/**
 * Query parameters whose values open something: a signed file URL's
 * signature, share keys of spaces and sites, a site visitor's token, an
 * e-mail invitation's secret.
 */
const SECRET_PARAMETERS = new Set(['signature', 'shareKey', 'share', 'jwt_token', 'secret']);
/**
 * Path segments followed by a secret: an invite link's id lets whoever holds
 * it join the organization; a password reset link's sets the password, and
 * an e-mail proof link's proves the address.
 */
const SECRET_AFTER_SEGMENTS = new Set(['invites', 'link-invites', 'password-reset', 'email-proof']);

function parameterName(pair: string): string {
  const equals = pair.indexOf('=');
  const name = equals === -1 ? pair : pair.slice(0, equals);
  if (!name.includes('%')) return name;
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A request target as the log may keep it: the values of secret query
 * parameters and the segment after `invites/` and the account links' segments replaced, whatever their
 * encoding. Costs two `indexOf` for a URL that holds neither.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  let path = query === -1 ? url : url.slice(0, query);
  if (path.includes('invites/') || path.includes('password-reset/') || path.includes('email-proof/')) {
    const segments = path.split('/');
    for (let i = 1; i < segments.length; i++) {
      if (SECRET_AFTER_SEGMENTS.has(segments[i - 1]!) && segments[i] !== '') segments[i] = REDACTED;
    }
    path = segments.join('/');
  }
  if (query === -1) return path;
  const pairs = url.slice(query + 1).split('&');
  const kept = pairs.map((pair) => {
    const name = parameterName(pair);
    return SECRET_PARAMETERS.has(name) ? `${name}=${REDACTED}` : pair;
  });
  return `${path}?${kept.join('&')}`;
}

/** A secret query parameter written out in free text (a message, an error), as `name=value`. */
const SECRET_IN_TEXT = /([?&](?:signature|shareKey|share|jwt_token|secret)=)[^&\s"'#<>]*/g;

/**
 * Free text as the log may keep it: the values of secret query parameters in
 * any URL it quotes replaced. Fastify and libraries put URLs in messages and
 * errors of their own ("reply already sent" names the raw URL).
 */
export function redactText(text: string): string {
  return text.includes('=') ? text.replace(SECRET_IN_TEXT, `$1${REDACTED}`) : text;
}

/** An error as the log shows it: pino's fields, with its message and stack redacted as free text. */
function serializeError(error: Error) {
  const serialized = stdSerializers.err(error);
  if (typeof serialized.message === 'string') serialized.message = redactText(serialized.message);
  if (typeof serialized.stack === 'string') serialized.stack = redactText(serialized.stack);
  return serialized;
}

const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie'];

/** Headers as a log line may show them (a line's `headers`): those that carry credentials censored. */
function censorCredentials(headers: unknown): unknown {
  if (typeof headers !== 'object' || headers === null) return headers;
  const shown: Record<string, unknown> = { ...(headers as Record<string, unknown>) };
  for (const name of Object.keys(shown)) {
    if (CREDENTIAL_HEADERS.includes(name.toLowerCase())) shown[name] = REDACTED;
  }
  return shown;
}

/**
 * The request as each log line of it shows it: Fastify's own fields, the URL
 * redacted. Headers are not logged (tokens and cookies are in them).
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * JSON lines for machines; pretty lines when a person watches a terminal
 * outside production (a container run with a TTY still logs JSON). Secrets
 * never reach the log: request URLs are redacted, and headers that carry
 * credentials are censored wherever a line includes them.
 */
export function loggerOptions(
  level: string,
  pretty = process.stdout.isTTY && process.env.NODE_ENV !== 'production',
): LoggerOptions {
  return {
    level,
    // Censoring by serializer rather than pino's `redact` paths: those cost every line, the access line included, 2 % of a small read.
    serializers: { req: serializeRequest, err: serializeError, headers: censorCredentials },
    hooks: {
      // Every string argument of a log call (the message, its format arguments) is redacted as free text.
      logMethod(args, method) {
        for (let i = 0; i < args.length; i++) {
          const arg: unknown = args[i];
          if (typeof arg === 'string') args[i] = redactText(arg);
        }
        method.apply(this, args);
      },
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } } : {}),
  };
}

/**
 * One access line per request, written when it is answered: its request
 * (URL redacted), status and time, where Fastify writes two (one as it
 * comes in, one with the status). Each line took some 4% of a kept small
 * answer's time in production (bench/), and the first said nothing the
 * second does not; a request that never ends is a timeout's to report.
 */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
