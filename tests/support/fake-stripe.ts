import express from 'express'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import Stripe from 'stripe'

/**
 * A local stand-in for the Stripe API, reached by the real Stripe SDK through STRIPE_API_URL.
 * It keeps customers, checkout sessions and subscriptions in memory, records every call, can
 * fail the next call with a provider error, and signs webhook events with the SDK's helper.
 */

type Obj = Record<string, any>
export type RecordedCall = { method: string; path: string; body: Obj; idempotencyKey?: string }

const DAY = 86_400

export class FakeStripe {
  readonly calls: RecordedCall[] = []
  readonly customers = new Map<string, Obj>()
  readonly sessions = new Map<string, Obj>()
  readonly subscriptions = new Map<string, Obj>()
  private idempotent = new Map<string, Obj>()
  private failures: { path: RegExp; message: string }[] = []
  private counter = 0
  private server!: Server
  url = ''
  readonly sdk = new Stripe('sk_test_fake')

  constructor(readonly webhookSecret = 'whsec_test_secret') {}

  async start() {
    const app = express()
    app.use(express.urlencoded({ extended: true }))
    app.use((req, res, next) => {
      const idempotencyKey = req.header('Idempotency-Key') ?? undefined
      if (req.path.startsWith('/v1/'))
        this.calls.push({ method: req.method, path: req.path, body: req.body ?? {}, idempotencyKey })
      const failure = this.failures.findIndex((f) => f.path.test(req.path))
      if (failure >= 0) {
        const [{ message }] = this.failures.splice(failure, 1)
        return res.status(402).json({ error: { type: 'card_error', code: 'card_declined', message } })
      }
      next()
    })
    app.post('/v1/customers', (req, res) => {
      const key = req.header('Idempotency-Key')
      if (key && this.idempotent.has(key)) return res.json(this.idempotent.get(key))
      const customer = {
        id: this.id('cus'),
        object: 'customer',
        ...req.body,
        metadata: req.body.metadata ?? {},
      }
      this.customers.set(customer.id, customer)
      if (key) this.idempotent.set(key, customer)
      res.json(customer)
    })
    app.post('/v1/customers/:id', (req, res) => {
      const customer = this.customers.get(req.params.id)
      if (!customer) return this.notFound(res, 'customer', req.params.id)
      Object.assign(customer, req.body, { metadata: { ...customer.metadata, ...req.body.metadata } })
      res.json(customer)
    })
    app.post('/v1/checkout/sessions', (req, res) => {
      const id = this.id('cs_test')
      const session = {
        id,
        object: 'checkout.session',
        url: `${this.url}/checkout/${id}`,
        status: 'open',
        ...req.body,
      }
      this.sessions.set(id, session)
      res.json(session)
    })
    app.get('/checkout/:id', (req, res) => {
      const session = this.sessions.get(req.params.id)
      res
        .type('html')
        .send(
          `<!doctype html><title>Fake Checkout</title><h1>Fake Stripe Checkout</h1><p>${session ? 'Session ' + session.id : 'Unknown session'}</p>`,
        )
    })
    app.get('/v1/subscriptions/:id', (req, res) => {
      const sub = this.subscriptions.get(req.params.id)
      return sub ? res.json(sub) : this.notFound(res, 'subscription', req.params.id)
    })
    app.post('/v1/subscriptions/:id', (req, res) => {
      const sub = this.subscriptions.get(req.params.id)
      if (!sub) return this.notFound(res, 'subscription', req.params.id)
      if (req.body.cancel_at_period_end !== undefined)
        sub.cancel_at_period_end = req.body.cancel_at_period_end === 'true'
      const change = req.body.items?.[0]
      if (change) {
        const item = sub.items.data[0]
        if (change.price) item.price = { id: change.price, object: 'price' }
        if (change.quantity) item.quantity = Number(change.quantity)
      }
      res.json(sub)
    })
    app.use((req, res) =>
      res.status(404).json({
        error: {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${req.method}: ${req.path})`,
        },
      }),
    )
    await new Promise<void>((resolve) => {
      this.server = app.listen(0, '127.0.0.1', () => resolve())
    })
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  /** The next call whose path matches answers 402 with this provider message. */
  failNext(path: RegExp, message: string) {
    this.failures.push({ path, message })
  }

  callsTo(method: string, path: RegExp) {
    return this.calls.filter((c) => c.method === method && path.test(c.path))
  }

  /** What Stripe does when the customer pays: the session completes and a subscription starts. */
  completeCheckout(sessionId: string, now = Math.floor(Date.now() / 1000)) {
    const session = this.sessions.get(sessionId)
    if (!session) throw new Error(`no session ${sessionId}`)
    const line = session.line_items[0]
    const sub = {
      id: this.id('sub'),
      object: 'subscription',
      status: 'active',
      customer: session.customer,
      cancel_at_period_end: false,
      ended_at: null,
      metadata: session.subscription_data?.metadata ?? {},
      items: {
        object: 'list',
        data: [
          {
            id: this.id('si'),
            object: 'subscription_item',
            price: { id: line.price, object: 'price' },
            quantity: Number(line.quantity),
            current_period_start: now,
            current_period_end: now + 30 * DAY,
          },
        ],
      },
    }
    this.subscriptions.set(sub.id, sub)
    Object.assign(session, { status: 'complete', subscription: sub.id })
    return { session, subscription: sub }
  }

  /** A signed event, as Stripe would deliver it to the webhook. */
  event(type: string, object: Obj, options: { id?: string; created?: number } = {}) {
    const payload = JSON.stringify({
      id: options.id ?? this.id('evt'),
      object: 'event',
      type,
      created: options.created ?? Math.floor(Date.now() / 1000),
      data: { object },
      livemode: false,
      api_version: Stripe.API_VERSION,
    })
    const signature = this.sdk.webhooks.generateTestHeaderString({ payload, secret: this.webhookSecret })
    return { payload, signature }
  }

  private id(prefix: string) {
    this.counter += 1
    return `${prefix}_${this.counter.toString(36).padStart(8, '0')}`
  }

  private notFound(res: express.Response, kind: string, id: string) {
    return res.status(404).json({
      error: {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${kind}: '${id}'`,
      },
    })
  }
}

/** Posts a signed event to the app's webhook. */
export function deliver(
  baseUrl: string,
  event: { payload: string; signature: string },
  signature = event.signature,
) {
  return fetch(`${baseUrl}/v1/subscription/webhook`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: event.payload,
  })
}
