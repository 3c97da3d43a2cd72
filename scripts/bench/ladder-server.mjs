// One rung of the request-path ladder (issue "Speed"), in its own process: LADDER_VARIANT picks
//   bare     node:http answering {"ok":true}: the load tool's own limit
//   express  Express with one plain route
//   remix    node:http handing a web Request to Remix's createRequestHandler on our build
//   express-remix  Express → the same handler, no middleware
// Each answers GET /healthz. The whole app is build/server.js itself (servers.mjs startApp).
import { createRequestHandler } from 'react-router'
import express from 'express'
import http from 'node:http'

const variant = process.env.LADDER_VARIANT
const body = JSON.stringify({ ok: true })

async function remixHandler() {
  const build = await import(new URL('../../build/server/index.js', import.meta.url).href)
  const handle = createRequestHandler(build, 'production')
  return async (req, res) => {
    const headers = new Headers()
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value)
    const response = await handle(
      new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers }),
    )
    res.writeHead(response.status, Object.fromEntries(response.headers))
    res.end(Buffer.from(await response.arrayBuffer()))
  }
}

let server
if (variant === 'bare') {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(body.length) })
    res.end(body)
  })
} else if (variant === 'express') {
  const app = express()
  app.get('/healthz', (_req, res) => res.type('application/json').send(body))
  server = http.createServer(app)
} else if (variant === 'remix') {
  server = http.createServer(await remixHandler())
} else if (variant === 'express-remix') {
  const app = express()
  const handle = await remixHandler()
  app.all('*', (req, res, next) => handle(req, res).catch(next))
  server = http.createServer(app)
} else {
  throw new Error(`unknown LADDER_VARIANT ${variant}`)
}
server.listen(0, '127.0.0.1', () => process.send?.({ listening: server.address().port }))
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
