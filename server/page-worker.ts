// A thread of Piscina's pool (server/page-workers.ts): renders pages with the same build the main
// thread uses, on a database connection of its own, so that a 4,000-card board's render never
// holds up a write, a live event or a JSON call (issue 34, ADR 29).
import { workerData } from 'piscina'
import { createRequestHandler, type AppLoadContext, type ServerBuild } from 'react-router'
import { installMapDoor } from '../app/features/map/capture.server'
import { registerMapReaders } from './map-readers'
import { getDb } from '../app/lib/db/db.server'
import { requestContext } from '../app/lib/logger.server'
import { markAsPageWorker } from '../app/lib/page-worker-role.server'
import type { RouteSlot } from '../app/load-context'
import type { PageAnswer, PageTask } from './page-workers'
import { CHECKPOINTS_ELSEWHERE } from './side-thread'
import { compressAnswerSync } from './compress-answer'
import { outgoingHeaders } from './remix-handler'

markAsPageWorker()
// Map tables refuse writes here too (the door never opens in this thread).
installMapDoor(getDb().$client)
registerMapReaders()
const { buildUrl, checkpointsElsewhere } = workerData as { buildUrl: string; checkpointsElsewhere: boolean }
if (checkpointsElsewhere) getDb().$client.pragma(CHECKPOINTS_ELSEWHERE)
const handle = createRequestHandler((await import(buildUrl)) as ServerBuild, 'production')

/** Why a rendered page's signal ends: the router then drops the timer that keeps its data alive (ADR 23). */
const ANSWER_READ = new DOMException('The answer was read', 'AbortError')

export default async function renderPage(task: PageTask): Promise<PageAnswer> {
  const controller = new AbortController()
  const request = new Request(task.url, { headers: task.headers, signal: controller.signal })
  const route: RouteSlot | undefined = task.timed ? {} : undefined
  const context = {
    requestId: task.requestId,
    cspNonce: task.cspNonce,
    clientIp: task.clientIp,
    rateLimit: task.rateLimit,
    // A page is sent whole once rendered here; only live streams (main thread) wait on the socket.
    onDisconnect: () => {},
    route,
    // The thread renders only pages (never `.data`, server/page-workers.ts).
    wholePage: true,
  } satisfies AppLoadContext
  try {
    const response = await requestContext.run({ requestId: task.requestId }, () => handle(request, context))
    const headers = outgoingHeaders(response.headers)
    const rendered = response.body ? new Uint8Array(await response.arrayBuffer()) : null
    const body = rendered && compressAnswerSync(headers, rendered, request.method, task.encoding)
    if (body) headers['content-length'] = body.length
    return {
      status: response.status,
      statusText: response.statusText,
      headers,
      body,
      pattern: route?.pattern,
    }
  } finally {
    controller.abort(ANSWER_READ)
  }
}
