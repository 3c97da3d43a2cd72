// A bare node:http server: the ceiling the app is compared with (same bytes, same loopback, same
// load tool or browser). Every request is answered with the same body (BARE_BODY_FILE, with its
// content type and, for pre-compressed bytes, its content encoding). With BARE_STATIC_DIR, a path
// naming a file there (the app's /assets/*.css, the favicon) gets that file instead, so a static
// copy of a page loads its styles as the app's page does. Started by servers.mjs.
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'

const body = fs.readFileSync(process.env.BARE_BODY_FILE)
const headers = { 'Content-Type': process.env.BARE_CONTENT_TYPE, 'Content-Length': String(body.length) }
if (process.env.BARE_CONTENT_ENCODING) headers['Content-Encoding'] = process.env.BARE_CONTENT_ENCODING

const staticDir = process.env.BARE_STATIC_DIR
const TYPES = {
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
}
/** The files of BARE_STATIC_DIR, read once: path → [headers, bytes]. */
const files = new Map()
if (staticDir) {
  for (const entry of fs.readdirSync(staticDir, { recursive: true })) {
    const file = path.join(staticDir, entry)
    if (!fs.statSync(file).isFile()) continue
    const bytes = fs.readFileSync(file)
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream'
    files.set(`/${entry.split(path.sep).join('/')}`, [
      { 'Content-Type': type, 'Content-Length': String(bytes.length) },
      bytes,
    ])
  }
}

const server = http.createServer((req, res) => {
  const file = files.get(new URL(req.url, 'http://x').pathname)
  if (file) {
    res.writeHead(200, file[0])
    return res.end(file[1])
  }
  res.writeHead(200, headers)
  res.end(body)
})
server.listen(0, '127.0.0.1', () => process.send?.({ listening: server.address().port }))
process.on('SIGTERM', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
