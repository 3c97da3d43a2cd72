import http from 'node:http'
import https from 'node:https'
import { Webhook } from 'standardwebhooks'
import { APP_VERSION } from '~/lib/version'
import { checkUrlForm, DELIVERY_TIMEOUT_MS, RESPONSE_BODY_MAX } from './webhooks'
import { AddressRefused, checkedLookup, isPrivateAddress } from './webhook-address.server'
import { UNREADABLE_SECRET } from './webhook-secret.server'

export type Attempt = { status: number | null; ms: number; error: string | null }
export type SendOptions = { allowHttp: boolean; allowPrivate: boolean; now?: Date }
export type Message = { url: string; secret: string; id: string; payload: string }
/** A message to send: its secret null when the stored one no longer opens (webhook-secret.server.ts). */
export type Outgoing = Omit<Message, 'secret'> & { secret: string | null }

/** The Standard Webhooks headers of one message (its id stays the same on every retry). */
export function signedHeaders(message: Message, now: Date): Record<string, string> {
  const signature = new Webhook(message.secret).sign(message.id, now, message.payload)
  return {
    'content-type': 'application/json',
    'user-agent': `Storymap-Webhooks/${APP_VERSION}`,
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signature,
  }
}

/**
 * One attempt: POST the payload, signed, to an address checked again now (after DNS
 * resolution, on the very address connected to). No redirect is followed; 10 s for the whole
 * answer; at most 4 KB of the body is read, for the error text of a failure. Without a secret
 * that opens, nothing is sent. Never throws.
 */
export function sendWebhook(outgoing: Outgoing, options: SendOptions): Promise<Attempt> {
  const started = performance.now()
  const done = (status: number | null, error: string | null): Attempt => ({
    status,
    ms: Math.round(performance.now() - started),
    error,
  })
  if (outgoing.secret === null) return Promise.resolve(done(null, UNREADABLE_SECRET))
  const message = { ...outgoing, secret: outgoing.secret }
  const form = checkUrlForm(message.url, options.allowHttp)
  if (!form.ok) return Promise.resolve(done(null, form.message))
  const url = form.url
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!options.allowPrivate && /^[\d.]+$|:/.test(literal) && isPrivateAddress(literal))
    return Promise.resolve(done(null, 'The address is private, loopback or link-local.'))
  return new Promise((resolve) => {
    let settled = false
    const finish = (status: number | null, error: string | null) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      request.destroy()
      resolve(done(status, error))
    }
    const transport = url.protocol === 'https:' ? https : http
    const request = transport.request(url, {
      method: 'POST',
      headers: signedHeaders(message, options.now ?? new Date()),
      lookup: checkedLookup(options.allowPrivate),
      agent: false,
    })
    const timer = setTimeout(() => finish(null, 'No answer within 10 s.'), DELIVERY_TIMEOUT_MS)
    request.on('error', (error) =>
      finish(null, error instanceof AddressRefused ? error.message : `Could not connect: ${error.message}`),
    )
    request.on('response', (response) => {
      const status = response.statusCode ?? null
      const chunks: Buffer[] = []
      let size = 0
      const end = () => {
        const body = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_MAX).toString('utf8')
        const ok = status !== null && status >= 200 && status < 300
        finish(status, ok ? null : body.trim() ? body : `HTTP ${status}`)
      }
      response.on('data', (chunk: Buffer) => {
        if (size >= RESPONSE_BODY_MAX) return
        chunks.push(chunk)
        size += chunk.length
        if (size >= RESPONSE_BODY_MAX) end()
      })
      response.on('end', end)
      response.on('error', end)
    })
    request.end(message.payload)
  })
}
