import { z } from 'zod'

const onOff = z.enum(['on', 'off'])
const trueFalse = z.enum(['true', 'false']).transform((v) => v === 'true')
const dollars = z.coerce.number().positive().max(100000)

/** Every environment variable of CONTRACT §2. All optional; defaults as documented there. */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).optional(),
  DATABASE_PATH: z.string().min(1).default('./data/storymap.db'),
  BASE_URL: z
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  SESSION_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  APP_MODE: z.enum(['selfhosted', 'hosted']).default('selfhosted'),
  TRIAL_DAYS: z.coerce.number().int().min(0).max(3650).default(14),
  SIGNUP: z.enum(['open', 'invite-only']).default('open'),
  SMTP_URL: z
    .url()
    .refine((u) => /^smtps?:\/\//.test(u), 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Storymap <no-reply@localhost>'),
  CONTACT_EMAIL: z.email().optional(),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_PRICE_BASIC: z.string().min(1).optional(),
  STRIPE_PRICE_PRO: z.string().min(1).optional(),
  STRIPE_API_URL: z.url().optional(),
  TEAM_PLAN_PRICE: dollars.default(9),
  BUSINESS_PLAN_PRICE: dollars.default(19),
  RATE_LIMIT: onOff.default('on'),
  /** Turns on GET /metrics (CONTRACT §5) for `Authorization: Bearer` with this value; unset, there is no such endpoint. */
  METRICS_TOKEN: z.string().min(1).optional(),
  /** Live board streams (CONTRACT §6): keep-alive comment interval, and the cap per process. */
  LIVE_KEEPALIVE_SECONDS: z.coerce.number().int().min(1).max(25).default(20),
  LIVE_MAX_STREAMS: z.coerce.number().int().min(1).max(100000).default(5000),
  /** Worker threads that render pages (server/page-workers.ts); unset: one fewer than the cores, at least one; 0 renders them on the main thread. */
  PAGE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** Webhooks (CONTRACT §10): allow http:// endpoints, and endpoints on private, loopback or link-local addresses. */
  WEBHOOKS_ALLOW_HTTP: trueFalse.default(false),
  WEBHOOKS_ALLOW_PRIVATE: trueFalse.default(false),
  /** Multiplies the webhook retry back-off and the 24-hour failure window (tests shrink them; 1 in production). */
  WEBHOOKS_RETRY_SCALE: z.coerce.number().positive().max(1).default(1),
  /** The notification e-mail window: at most one e-mail per member and card this often (tests shrink it; 600 in production). */
  NOTIFICATIONS_WINDOW_SECONDS: z.coerce.number().positive().max(600).default(600),
  /** GitHub Issues sync (CONTRACT §13): the REST API's address (GitHub Enterprise Server: https://HOST/api/v3), and how often linked repositories are polled. */
  GITHUB_API_URL: z
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .transform((u) => u.replace(/\/+$/, ''))
    .default('https://api.github.com'),
  GITHUB_POLL_SECONDS: z.coerce.number().int().min(1, 'must be at least 1').max(86400).default(60),
  /** GitLab and Jira sync (CONTRACT §14): how often linked projects are polled. */
  TRACKER_POLL_SECONDS: z.coerce.number().int().min(1, 'must be at least 1').max(86400).default(60),
  /** A tracker's `url` may be http:// (tests with local fakes); else https:// only. */
  TRACKER_ALLOW_HTTP: trueFalse.default(false),
  /** A tracker's `url` may resolve to private addresses; unset: true in selfhosted, false in hosted (parseEnv). */
  TRACKER_ALLOW_PRIVATE: trueFalse.optional(),
  /** Read by the logger directly (it starts before the rest); validated here with everything else. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Single sign-on (CONTRACT §11): set the issuer, client id and secret together, or none of them. */
  OIDC_ISSUER: z
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).max(60, 'must be at most 60 characters').default('SSO'),
  OIDC_SCOPES: z
    .string()
    .transform((s) => s.split(/\s+/).filter(Boolean).join(' '))
    .refine((s) => s.split(' ').includes('openid'), 'must include openid')
    .default('openid email profile'),
  OIDC_ONLY: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .default(false),
  /** The assistant (CONTRACT §16): an OpenAI-compatible API, its key (optional) and model (required with the address); unset: no assistant. */
  AI_BASE_URL: z
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must start with http:// or https://')
    .transform((u) => u.replace(/\/+$/, ''))
    .optional(),
  AI_API_KEY: z.string().min(1).optional(),
  AI_MODEL: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  /** The assistant's longest wait for the model's answer (fractions allowed; tests use less than a second). */
  AI_TIMEOUT_SECONDS: z.coerce.number().positive('must be more than 0').max(3600).default(60),
})

/** SSO needs the issuer, the client id and the secret together; OIDC_ONLY needs SSO. */
const checkedEnvSchema = envSchema.superRefine((env, ctx) => {
  const sso = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const
  if (sso.some((name) => env[name] !== undefined)) {
    for (const name of sso) {
      if (env[name] === undefined)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `must be set with ${sso.filter((n) => n !== name).join(' and ')}`,
        })
    }
  }
  if (env.OIDC_ONLY && env.OIDC_ISSUER === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['OIDC_ONLY'],
      message: 'needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET',
    })
  checkAssistantEnv(env, ctx)
})

/**
 * AI_MODEL is required with AI_BASE_URL; AI_MODEL or AI_API_KEY without AI_BASE_URL would do
 * nothing. The issue names AI_BASE_URL then, so the one-line message never shows the key.
 */
function checkAssistantEnv(env: z.output<typeof envSchema>, ctx: z.RefinementCtx) {
  if (env.AI_BASE_URL !== undefined && env.AI_MODEL === undefined)
    ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'must be set with AI_BASE_URL' })
  const needing = (['AI_MODEL', 'AI_API_KEY'] as const).filter((name) => env[name] !== undefined)
  if (env.AI_BASE_URL === undefined && needing.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['AI_BASE_URL'],
      message: `must be set when ${needing.join(' and ')} is set`,
    })
}

export type EnvInput = z.input<typeof envSchema>
/** `baseUrlDefaulted`: BASE_URL was not set, and is `http://localhost:$PORT`. */
export type Env = Omit<z.output<typeof envSchema>, 'TRACKER_ALLOW_PRIVATE'> & {
  BASE_URL: string
  baseUrlDefaulted: boolean
  TRACKER_ALLOW_PRIVATE: boolean
}

export type EnvResult = { ok: true; env: Env } | { ok: false; message: string }

/** Parses raw variables; empty strings count as unset. The message names the first bad variable. */
export function parseEnv(raw: Record<string, string | undefined>): EnvResult {
  const cleaned: Record<string, string> = {}
  for (const key of Object.keys(envSchema.shape)) {
    const value = raw[key]
    if (value !== undefined && value.trim() !== '') cleaned[key] = value.trim()
  }
  const result = checkedEnvSchema.safeParse(cleaned)
  if (!result.success) {
    const issue = result.error.issues[0]
    const name = String(issue.path[0])
    const shown = name in cleaned ? JSON.stringify(cleaned[name]) : '(unset)'
    return { ok: false, message: `Invalid environment variable ${name}=${shown}: ${issue.message}` }
  }
  const env = result.data
  return {
    ok: true,
    env: {
      ...env,
      BASE_URL: env.BASE_URL ?? `http://localhost:${env.PORT}`,
      baseUrlDefaulted: env.BASE_URL === undefined,
      // A self-hosted server's GitLab is often on the team's own network; a hosted one must not reach into its own.
      TRACKER_ALLOW_PRIVATE: env.TRACKER_ALLOW_PRIVATE ?? env.APP_MODE === 'selfhosted',
    },
  }
}
