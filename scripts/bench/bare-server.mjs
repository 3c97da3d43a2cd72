// A bare node:http server answering every request with the same bytes: the ceiling for the
// app's project read (same body, same loopback, same load tool). Started by servers.mjs.
import fs from 'node:fs'
import http from 'node:http'

const body = fs.readFileSync(process.env.BARE_BODY_FILE)
const headers = { 'Content-Type': process.env.BARE_CONTENT_TYPE, 'Content-Length': String(body.length) }

const server = http.createServer((_req, res) => {
  res.writeHead(200, headers)
  res.end(body)
})
server.listen(0, '127.0.0.1', () => process.send?.({ listening: server.address().port }))
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
