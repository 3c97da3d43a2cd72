import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUp } from '../support/client'
import { deliver, FakeStripe } from '../support/fake-stripe'
import { startServer, type RunningServer } from '../support/server'

/** Self-hosted: no billing anywhere, and Stripe is never called even when it is configured. */
let fake: FakeStripe
let server: RunningServer
beforeAll(async () => {
  fake = await new FakeStripe().start()
  server = await startServer({
    APP_MODE: 'selfhosted',
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_API_URL: fake.url,
  })
})
afterAll(async () => {
  await server?.stop()
  await fake?.stop()
})

it('billing routes answer 404, pages show no Plan or Billing, and Stripe hears nothing', async () => {
  const owner = await signUp(server.url)
  expect((await owner.client.get('/v1/account/app')).json.subscriptions[0]).toMatchObject({
    level: 'PRO',
    externalStatus: 'active',
    expirationDate: null,
  })
  for (const [path, body] of [
    ['/v1/subscription/checkoutsession', { plan: 'basic', quantity: 1 }],
    ['/v1/subscription/change', { plan: 'basic', quantity: 2 }],
    ['/v1/settings/general-info', { externalBillingEmail: 'a@b.co', euVat: '' }],
  ] as const) {
    expect(await owner.client.post(path, body)).toMatchObject({ status: 404, json: { error: 'not_found' } })
  }
  const event = fake.event('checkout.session.completed', {
    id: 'cs_1',
    object: 'checkout.session',
    mode: 'subscription',
    subscription: 'sub_1',
  })
  const webhook = await deliver(server.url, event)
  expect(webhook.status).toBe(404)
  expect(await webhook.json()).toMatchObject({ error: 'not_found' })

  const plan = await owner.client.get(`/${owner.workspaceName}/subscription`)
  expect(plan.status).toBe(404)
  expect(plan.text).toContain('Page not found')
  const settings = await owner.client.get(`/${owner.workspaceName}/settings`)
  expect(settings.text).toContain('Delete workspace')
  expect(settings.text).not.toContain('Billing information')
  expect(settings.text).not.toContain('Change plan')
  expect(settings.text).not.toContain('Active (trial)')
  expect(settings.text).not.toContain('Your trial ends')
  expect(fake.calls).toHaveLength(0)
})
