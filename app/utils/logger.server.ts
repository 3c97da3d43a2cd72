import pino from 'pino'
import { singleton } from './singleton.server'

/** Structured JSON logs; secrets are redacted wherever they might appear. */
export const logger = singleton('logger', () =>
  pino({
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info'),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        '*.password',
        '*.passwordHash',
        '*.key',
        '*.token',
      ],
      censor: '[redacted]',
    },
  }),
)
