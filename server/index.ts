import type { AppLoadContext, ServerBuild } from 'react-router'
import closeWithGrace from 'close-with-grace'
import compression from 'compression'
import express from 'express'
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { closeDatabase, getDb } from '../app/lib/db/db.server'
import { installMapDoor } from '../app/features/map/capture.server'
import { registerMapFollowers } from './map-followers'
import { startMaintenance } from '../app/jobs/maintenance.server'
import { startWebhookWorker } from '../app/features/automation/webhook-worker.server'
import { sealClearWebhookSecrets } from '../app/features/automation/webhook-secret.server'
import { startNotificationWorker } from '../app/features/notifications/notification-worker.server'
import { setMailCarrier } from '../app/lib/email.server'
import { sealClearGithubWebhookSecrets, startTrackerWorker } from '../app/features/trackers/index.server'
import { closeAllStreams, configureLiveHub } from '../app/features/live/live-hub.server'
import { accessWritesMark } from '../app/lib/db/access-writes.server'
import { redactPath } from '../app/lib/log-redaction'
import { EnvError, getEnv } from '../app/lib/env.server'
import { unsetBaseUrlWarning } from '../app/lib/base-url-warning'
import { logger, requestContext } from '../app/lib/logger.server'
import { prepareDummyHash } from '../app/features/accounts/password.server'
import { warmUpSingleSignOn } from '../app/features/accounts/oidc.server'
import { errorHandler } from './errors'
import { readBody } from './body'
import { isApiRequest, requestGuards } from './guards'
import { rateLimitNotice, rateLimits, tokenRateLimit } from './rate-limits'
import { metricsServer } from './metrics'
import { remixHandler } from './remix-handler'
import { pageWorkers } from './page-workers'
import { CHECKPOINTS_ELSEWHERE, CHECKPOINTS_HERE, startSideThread } from './side-thread'
import { cspNonceOf, securityHeaders } from './security-headers'
import { wrappedByCompression } from './compress-answer'
import type { RouteSlot } from '../app/load-context'

const production = process.env.NODE_ENV === 'production'
// What the server creates is its own alone (issue 43): the data folder 0700, the database,
// its -wal and -shm, the session secret 0600. openDatabase sets the database's modes itself too.
process.umask(0o077)

let env
try {
  env = getEnv()
  // Creates the file and applies pending migrations before the first request; from then on the
  // map tables take writes only through the one door (app/features/map/door.server.ts).
  installMapDoor(getDb().$client)
  registerMapFollowers()
  // Webhook secrets stored before migration 0013 are sealed now: SQL cannot reach SESSION_SECRET.
  sealClearWebhookSecrets(getDb().$client)
  sealClearGithubWebhookSecrets(getDb().$client)
  configureLiveHub({
    keepAliveMs: env.LIVE_KEEPALIVE_SECONDS * 1000,
    maxStreams: env.LIVE_MAX_STREAMS,
    accessMark: accessWritesMark,
  })
  void prepareDummyHash() // the first log-in with an unknown address must not be the slow one
  warmUpSingleSignOn() // discovers the provider in the background; an unreachable one is only logged
} catch (error) {
  console.error(error instanceof EnvError ? error.message : `Could not start: ${(error as Error).message}`)
  process.exit(1)
}

const viteDevServer = production
  ? undefined
  : await import('vite').then((vite) => vite.createServer({ server: { middlewareMode: true } }))

// With METRICS_TOKEN set: GET /metrics, and every request timed from here on.
const metrics = metricsServer(env)

const app = express()
app.disable('x-powered-by')
// X-Forwarded-For is believed only from a proxy on this machine or a private network (a container
// host, a LAN reverse proxy); rate limits key on the client address it gives (ADR 4).
app.set('trust proxy', ['loopback', 'linklocal', 'uniquelocal'])

if (metrics) app.use(metrics.timing)
app.use((req, res, next) => {
  const requestId = crypto.randomUUID()
  res.locals.requestId = requestId
  // A JSON answer is complete before it is sent: the Remix adapter compresses it (compressAnswer)
  // and the compression middleware does not wrap it.
  res.locals.answersWhole = req.path === '/healthz' || isApiRequest(req)
  res.setHeader('X-Request-Id', requestId)
  const started = process.hrtime.bigint()
  // 'close' comes for every request, also one whose connection was cut before the answer went out.
  res.on('close', () => {
    if (req.path === '/healthz' || req.path.startsWith('/assets/') || res.locals.scraped) return
    logger.info(
      {
        requestId,
        method: req.method,
        path: redactPath(req.path),
        status: res.statusCode,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        ...(res.writableFinished || res.locals.answerSent ? {} : { cut: true }),
      },
      'request',
    )
  })
  requestContext.run({ requestId }, next)
})
let shuttingDown = false
app.use((_req, res, next) => {
  if (shuttingDown) res.set('Connection', 'close')
  next()
})
const checkoutOrigins =
  env.APP_MODE === 'hosted'
    ? ['https://checkout.stripe.com', ...(env.STRIPE_API_URL ? [new URL(env.STRIPE_API_URL).origin] : [])]
    : []
app.use(securityHeaders(production, checkoutOrigins))
// Pages are compressed on the fly at a fast level as React streams them; JSON answers are
// compressed whole by the Remix adapter (compressAnswer), and the project bundle comes compressed
// already (once per map version). Live streams (text/event-stream) are never compressed: that
// would hold them back.
const compressPages = compression({
  level: 3,
  brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } },
  filter: (req, res) =>
    !String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream') &&
    compression.filter(req, res),
})
app.use((req, res, next) => (wrappedByCompression(res) ? compressPages(req, res, next) : next()))
app.use(requestGuards(env))
if (metrics) app.use(metrics.endpoint)
app.use(readBody)
app.use(rateLimits(env))
app.use(tokenRateLimit(env))

if (viteDevServer) {
  app.use(viteDevServer.middlewares)
} else {
  app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y' }))
  // Every public file has an extension: other paths (pages, /v1, /healthz) skip the file-system
  // look-up, a stat on the thread pool for each request.
  const publicFiles = express.static('build/client', { maxAge: '1h', index: false })
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()))
}

const buildUrl = new URL('./server/index.js', import.meta.url).href
const build = viteDevServer
  ? () => viteDevServer.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>
  : ((await import(buildUrl)) as ServerBuild)

// WAL checkpoints and e-mail on a thread of their own, so no commit waits on the disk and no
// message is built on the main thread (production only).
const sideThread =
  typeof build === 'function'
    ? undefined
    : startSideThread({
        databaseFile: env.DATABASE_PATH,
        smtpUrl: env.SMTP_URL,
        // Without its thread the log would grow without end: SQLite checkpoints in the commit again.
        onLost: () => {
          getDb().$client.pragma(CHECKPOINTS_HERE)
          setMailCarrier(undefined)
        },
      })
if (sideThread) getDb().$client.pragma(CHECKPOINTS_ELSEWHERE)
// Before the page threads set their own young generation (server/side-thread.ts).
await sideThread?.started
setMailCarrier(sideThread?.sendMail)

// Pages render on worker threads (production only: development renders through Vite).
const pageThreads = env.PAGE_THREADS ?? Math.max(1, os.availableParallelism() - 1)
const pages =
  typeof build === 'function' || pageThreads === 0
    ? undefined
    : pageWorkers({ build, buildUrl, threads: pageThreads, checkpointsElsewhere: sideThread !== undefined })
if (pages) app.get('*', pages.renderOnWorker)

app.all(
  '*',
  remixHandler({
    build,
    mode: production ? 'production' : 'development',
    baseUrl: env.BASE_URL,
    getLoadContext: (req, res) =>
      Object.defineProperties(
        {
          requestId: res.locals.requestId as string,
          rateLimit: rateLimitNotice(res),
          onDisconnect: (listener: () => void) => {
            if (res.destroyed || res.writableFinished) listener()
            else res.once('close', listener)
          },
          route: res.locals.route as RouteSlot | undefined,
          wholePage: !req.path.endsWith('.data'),
        },
        {
          // Worked out only when asked for (the nonce, the address through the trusted proxies);
          // not enumerable, so the copy of the context the router's instrumentation makes for
          // each loader (with METRICS_TOKEN set) does not work them out.
          cspNonce: { get: () => cspNonceOf(res) },
          clientIp: { get: () => req.ip ?? '' },
        },
      ) as AppLoadContext,
  }),
)
app.use(errorHandler)

const onListening = () => {
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : env.PORT
  logger.info({ port, mode: env.APP_MODE }, `Storymap listening on http://${env.HOST ?? 'localhost'}:${port}`)
  const baseUrlWarning = unsetBaseUrlWarning(env)
  if (baseUrlWarning) logger.warn({ host: env.HOST ?? null }, baseUrlWarning)
  if (process.send) process.send({ listening: port })
}
const server = env.HOST ? app.listen(env.PORT, env.HOST, onListening) : app.listen(env.PORT, onListening)
// A request (headers and at most 1 MB of body, 10 MB for an import) gets a minute; a trickling sender is cut off then.
server.requestTimeout = 60_000
// Node refuses an over-long request line or headers itself, before Express; the answer keeps the
// API's shape (`{"error","message"}`, CONTRACT §3) instead of Node's bare status line.
server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
  if (!socket.writable) return socket.destroy()
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW'
  const [status, reason, code, message] = tooLarge
    ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The address or headers are too long.']
    : [400, 'Bad Request', 'bad_request', 'The request could not be read.']
  const body = JSON.stringify({ error: code, message })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
})
const stopMaintenance = startMaintenance()
const stopWebhooks = startWebhookWorker()
const stopNotifications = startNotificationWorker()
const stopTrackers = startTrackerWorker()

closeWithGrace({ delay: 10_000, logger: false }, async ({ signal, err }) => {
  if (err) logger.error({ err }, 'fatal error, shutting down')
  else logger.info({ signal }, 'shutting down')
  // Stop listening; requests in flight finish, and each kept-alive connection closes once idle
  // (close() alone would wait for the clients' keep-alive timeout).
  shuttingDown = true
  stopMaintenance()
  stopWebhooks()
  stopNotifications()
  stopTrackers()
  const closed = new Promise<void>((resolve) => server.close(() => resolve()))
  // Live streams never finish by themselves: end them, and their connections close once idle.
  closeAllStreams()
  const sweep = setInterval(() => server.closeIdleConnections(), 50)
  await closed
  clearInterval(sweep)
  server.closeAllConnections()
  await viteDevServer?.close()
  await pages?.close()
  await sideThread?.stop()
  closeDatabase()
})
