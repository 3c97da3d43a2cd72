import { AsyncLocalStorage } from 'node:async_hooks'
import pino from 'pino'
import { singleton } from './singleton.server'

/** The request being served; server/index.ts opens it, every log line inside carries its id. */
export const requestContext = singleton(
  'request-context',
  () => new AsyncLocalStorage<{ requestId: string }>(),
)

/** Drizzle puts a failed query's parameters (hashes, addresses, tokens) in the message: keep the SQL, drop them. */
function errSerializer(err: unknown) {
  const out = pino.stdSerializers.err(err as Error) as Record<string, unknown> | undefined
  if (!out) return out
  for (const field of ['message', 'stack']) {
    const value = out[field]
    if (typeof value === 'string') out[field] = value.replace(/\nparams: [^\n]*/g, '\nparams: [redacted]')
  }
  delete out.params
  const cause = out.cause as Record<string, unknown> | undefined
  if (cause && typeof cause === 'object') delete cause.params
  return out
}

/** Structured JSON logs; secrets are redacted wherever they might appear. */
export const logger = singleton('logger', () =>
  pino({
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
    mixin: () => {
      const store = requestContext.getStore()
      return store ? { requestId: store.requestId } : {}
    },
    serializers: { err: errSerializer },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers["set-cookie"]',
        '*.password',
        '*.passwordHash',
        '*.key',
        '*.token',
        '*.cookie',
        '*.secret',
        '*.sessionId',
        '*.SESSION_SECRET',
        '*.SMTP_URL',
        '*.STRIPE_SECRET_KEY',
        '*.STRIPE_WEBHOOK_SECRET',
        '*.OIDC_CLIENT_SECRET',
        'err.config',
        'err.params',
      ],
      censor: '[redacted]',
    },
  }),
)
