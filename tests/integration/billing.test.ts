import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { deliver, FakeStripe } from '../support/fake-stripe'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

const BASE = 'http://billing.test'
let fake: FakeStripe
let mailbox: Awaited<ReturnType<typeof startMailbox>>
let server: RunningServer

beforeAll(async () => {
  fake = await new FakeStripe().start()
  mailbox = await startMailbox()
  server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '14',
    BASE_URL: BASE,
    SMTP_URL: mailbox.url,
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_API_URL: fake.url,
  })
})
afterAll(async () => {
  await server?.stop()
  await fake?.stop()
  await mailbox?.close()
})

type Owner = Awaited<ReturnType<typeof signUp>>

async function subscriptionOf(owner: Owner) {
  const app = await owner.client.get('/v1/account/app')
  return app.json.subscriptions.find((s: { workspaceId: string }) => s.workspaceId === owner.workspaceId)
}

const createProject = (client: Client) =>
  client.post(`/v1/projects/${crypto.randomUUID()}`, { title: 'Roadmap' })

/** Owner checks out `quantity` Team editors and Stripe completes the payment. */
async function subscribe(owner: Owner, quantity: number) {
  const checkout = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity })
  expect(checkout.status).toBe(200)
  const { session, subscription } = fake.completeCheckout(checkout.json.id)
  expect((await deliver(server.url, fake.event('checkout.session.completed', session))).status).toBe(200)
  return subscription
}

/** Joins `email` to the owner's workspace at `level` through a mailed invitation. */
async function inviteAndAccept(owner: Owner, level: string) {
  const email = `mate${crypto.randomUUID().slice(0, 8)}@example.com`
  const since = mailbox.mails.length
  const invite = await owner.client.post('/v1/invites', { email, level })
  expect(invite.status).toBe(200)
  const code = linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`)
    .split('/')
    .pop()!
  const mate = await signUp(server.url, { email })
  return { mate, code, accept: () => mate.client.post(`/v1/users/invite/${code}`) }
}

describe('a workspace from trial to cancelled, through the real Stripe SDK', () => {
  it('trial → checkout → active → quantity change → payment failed → recovered → cancelled', async () => {
    const owner = await signUp(server.url)
    expect(await subscriptionOf(owner)).toMatchObject({
      level: 'TRIAL',
      externalStatus: 'trialing',
      numberOfEditors: 1,
    })

    const tooFew = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 0 })
    expect(tooFew).toMatchObject({ status: 400, json: { error: 'quantity_invalid' } })
    expect(tooFew.json.message).toContain('At least one editor is required')
    expect(
      fake
        .callsTo('POST', /^\/v1\/checkout\/sessions$/)
        .filter((c) => c.body.client_reference_id === owner.workspaceId),
    ).toHaveLength(0)

    const first = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 3 })
    expect(first.status).toBe(200)
    expect(first.json.url).toBe(`${fake.url}/checkout/${first.json.id}`)
    const sent = fake.sessions.get(first.json.id)!
    expect(sent).toMatchObject({
      mode: 'subscription',
      client_reference_id: owner.workspaceId,
      success_url: `${BASE}/account/success`,
      cancel_url: `${BASE}/account/cancel`,
      line_items: [{ price: 'price_basic', quantity: '3' }],
    })
    const customer = fake.customers.get(sent.customer)!
    expect(customer).toMatchObject({ email: owner.email, metadata: { workspaceId: owner.workspaceId } })

    // Abandoned checkout, second try: the same Stripe customer is reused.
    const second = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 3 })
    expect(fake.sessions.get(second.json.id)!.customer).toBe(customer.id)
    expect(
      [...fake.customers.values()].filter((c) => c.metadata.workspaceId === owner.workspaceId),
    ).toHaveLength(1)

    const { session, subscription } = fake.completeCheckout(second.json.id)
    const completed = fake.event('checkout.session.completed', session)
    expect((await deliver(server.url, completed)).status).toBe(200)
    const period = subscription.items.data[0]
    expect(await subscriptionOf(owner)).toMatchObject({
      level: 'BASIC',
      externalStatus: 'active',
      numberOfEditors: 3,
      fromDate: new Date(period.current_period_start * 1000).toISOString(),
      expirationDate: new Date(period.current_period_end * 1000).toISOString(),
    })
    expect((await createProject(owner.client)).status).toBe(200)

    // Checkout again while paid is refused: the plan is changed instead.
    const again = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 3 })
    expect(again).toMatchObject({ status: 409, json: { error: 'already_subscribed' } })

    const change = await owner.client.post('/v1/subscription/change', { plan: 'basic', quantity: 5 })
    expect(change).toMatchObject({ status: 200, json: { numberOfEditors: 5, level: 'BASIC' } })
    const update = fake.callsTo('POST', new RegExp(`^/v1/subscriptions/${subscription.id}$`)).at(-1)!
    expect(update.body).toMatchObject({
      proration_behavior: 'create_prorations',
      items: [{ id: period.id, price: 'price_basic', quantity: '5' }],
    })

    // Payment fails: view only (reads work, writes refused), until Stripe says it is paid again.
    const failed = fake.event('invoice.payment_failed', {
      id: 'in_1',
      object: 'invoice',
      subscription: subscription.id,
    })
    expect((await deliver(server.url, failed)).status).toBe(200)
    expect(await subscriptionOf(owner)).toMatchObject({ externalStatus: 'past_due' })
    expect(await createProject(owner.client)).toMatchObject({ status: 403, json: { error: 'plan_inactive' } })
    expect((await owner.client.get('/v1/projects')).status).toBe(200)
    const paid = fake.event('customer.subscription.updated', { ...subscription, status: 'active' })
    expect((await deliver(server.url, paid)).status).toBe(200)
    expect((await createProject(owner.client)).status).toBe(200)

    // Cancel: still active until the period ends, then Stripe deletes the subscription.
    const cancel = await owner.client.post('/v1/subscription/change', { plan: 'cancel' })
    expect(cancel).toMatchObject({ status: 200, json: { externalStatus: 'active' } })
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true)
    expect((await createProject(owner.client)).status).toBe(200)
    const ended = fake.event('customer.subscription.deleted', {
      ...fake.subscriptions.get(subscription.id),
      status: 'canceled',
      ended_at: period.current_period_end,
    })
    expect((await deliver(server.url, ended)).status).toBe(200)
    expect(await subscriptionOf(owner)).toMatchObject({ externalStatus: 'canceled' })
    expect(await createProject(owner.client)).toMatchObject({ status: 403, json: { error: 'plan_inactive' } })
    expect(
      (await owner.client.post('/v1/subscription/change', { plan: 'basic', quantity: 5 })).json.error,
    ).toBe('no_paid_plan')
  })

  it('a replayed event changes nothing, and a late older event is ignored', async () => {
    const owner = await signUp(server.url)
    const subscription = await subscribe(owner, 2)
    const at = Math.floor(Date.now() / 1000)
    const withQuantity = (quantity: number) => ({
      ...subscription,
      items: { ...subscription.items, data: [{ ...subscription.items.data[0], quantity }] },
    })
    const four = fake.event('customer.subscription.updated', withQuantity(4), { created: at })
    const five = fake.event('customer.subscription.updated', withQuantity(5), { created: at })
    expect((await deliver(server.url, four)).status).toBe(200)
    expect((await deliver(server.url, five)).status).toBe(200)
    expect((await subscriptionOf(owner)).numberOfEditors).toBe(5)
    const replay = await deliver(server.url, four)
    expect(replay.status).toBe(200)
    expect((await subscriptionOf(owner)).numberOfEditors).toBe(5)
    const older = fake.event('customer.subscription.updated', withQuantity(2), { created: at - 60 })
    expect((await deliver(server.url, older)).status).toBe(200)
    expect((await subscriptionOf(owner)).numberOfEditors).toBe(5)
  })

  it('refuses a badly signed or unsigned event and ignores unknown events', async () => {
    const owner = await signUp(server.url)
    const before = await subscriptionOf(owner)
    const forged = fake.event('customer.subscription.updated', {
      id: 'sub_forged',
      object: 'subscription',
      status: 'active',
      customer: 'cus_x',
      metadata: { workspaceId: owner.workspaceId },
      items: { data: [{ id: 'si_x', price: { id: 'price_pro' }, quantity: 50 }] },
    })
    const wrongSecret = new FakeStripe('whsec_other').event(
      'customer.subscription.updated',
      JSON.parse(forged.payload).data.object,
    )
    for (const signature of [wrongSecret.signature, 't=1,v1=deadbeef', '']) {
      const res = await deliver(server.url, forged, signature)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({ error: 'signature_invalid' })
    }
    // A valid signature over a changed body fails too.
    const tampered = await deliver(server.url, {
      payload: forged.payload.replace('"quantity":50', '"quantity":51'),
      signature: forged.signature,
    })
    expect(tampered.status).toBe(400)
    expect(await subscriptionOf(owner)).toEqual(before)

    const unknown = await deliver(
      server.url,
      fake.event('customer.created', { id: 'cus_new', object: 'customer' }),
    )
    expect(unknown.status).toBe(200)
    expect(await subscriptionOf(owner)).toEqual(before)
  })
})

describe('editor seats of a paid plan', () => {
  it('refuses invites, role changes and acceptances beyond the paid editors', async () => {
    const owner = await signUp(server.url)
    const viewer = await inviteAndAccept(owner, 'VIEWER')
    expect((await viewer.accept()).status).toBe(200)
    await subscribe(owner, 2)

    const editor = await inviteAndAccept(owner, 'EDITOR') // the owner and this invite hold both seats
    const full = await owner.client.post('/v1/invites', { email: 'third@example.com', level: 'ADMIN' })
    expect(full).toMatchObject({ status: 403, json: { error: 'seats_full' } })
    expect(full.json.message).toContain('pays for 2 editors')
    expect(
      (await owner.client.post('/v1/invites', { email: 'reader@example.com', level: 'VIEWER' })).status,
    ).toBe(200)

    const members = (await owner.client.get('/v1/members')).json as {
      id: string
      accountId: string
      level: string
    }[]
    const viewerId = members.find((m) => m.accountId === viewer.mate.account.id)!.id
    const promote = await owner.client.post(`/v1/members/${viewerId}/level`, { level: 'EDITOR' })
    expect(promote).toMatchObject({ status: 403, json: { error: 'seats_full' } })
    expect((await editor.accept()).status).toBe(200)

    // Fewer editors than the workspace has is refused; more seats let the promotion through.
    const below = await owner.client.post('/v1/subscription/change', { plan: 'basic', quantity: 1 })
    expect(below).toMatchObject({ status: 400, json: { error: 'quantity_invalid' } })
    expect(below.json.message).toContain('Need to have at least 2 editors.')
    expect((await owner.client.post('/v1/subscription/change', { plan: 'basic', quantity: 3 })).status).toBe(
      200,
    )
    expect((await owner.client.post(`/v1/members/${viewerId}/level`, { level: 'EDITOR' })).status).toBe(200)
  })

  it('an invitation cannot be accepted once the seats it needs were sold off', async () => {
    const owner = await signUp(server.url)
    const pending = await inviteAndAccept(owner, 'EDITOR')
    await subscribe(owner, 1)
    const res = await pending.accept()
    expect(res).toMatchObject({ status: 403, json: { error: 'seats_full' } })
    expect((await owner.client.get('/v1/members')).json).toHaveLength(1)
  })
})

describe('who may touch billing', () => {
  it('only an owner; others get the SPEC text, signed-out callers 401', async () => {
    const owner = await signUp(server.url)
    const admin = await inviteAndAccept(owner, 'ADMIN')
    expect((await admin.accept()).status).toBe(200)
    admin.mate.client.workspaceId = owner.workspaceId
    const calls = fake.calls.length
    for (const [path, body] of [
      ['/v1/subscription/checkoutsession', { plan: 'basic', quantity: 2 }],
      ['/v1/subscription/change', { plan: 'cancel' }],
      ['/v1/settings/general-info', { externalBillingEmail: 'a@b.co', euVat: '' }],
    ] as const) {
      const refused = await admin.mate.client.post(path, body)
      expect(refused).toMatchObject({
        status: 403,
        json: {
          error: 'owner_only',
          message:
            'Only an owner of the workspace can change the workspace subscription. Please contact an owner.',
        },
      })
      expect((await new Client(server.url, owner.workspaceId).post(path, body)).status).toBe(401)
    }
    expect(fake.calls.length).toBe(calls)
  })

  it('a provider failure answers 502 with the provider message and changes nothing', async () => {
    const owner = await signUp(server.url)
    fake.failNext(/^\/v1\/checkout\/sessions$/, 'Your card was declined.')
    const res = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 1 })
    expect(res).toMatchObject({
      status: 502,
      json: { error: 'payment_provider_error', message: 'Your card was declined.' },
    })
    expect(await subscriptionOf(owner)).toMatchObject({ level: 'TRIAL', externalStatus: 'trialing' })
  })

  it('billing information is validated, kept, and sent to the Stripe customer', async () => {
    const owner = await signUp(server.url)
    const bad = await owner.client.post('/v1/settings/general-info', {
      externalBillingEmail: 'nope',
      euVat: '',
    })
    expect(bad).toMatchObject({ status: 400, json: { error: 'external_billing_email_invalid' } })
    await subscribe(owner, 1)
    const ok = await owner.client.post('/v1/settings/general-info', {
      externalBillingEmail: 'billing@acme.eu',
      euVat: 'DE123456789',
    })
    expect(ok).toMatchObject({
      status: 200,
      json: { externalBillingEmail: 'billing@acme.eu', euVat: 'DE123456789' },
    })
    const app = await owner.client.get('/v1/account/app')
    expect(app.json.workspaces.find((w: { id: string }) => w.id === owner.workspaceId)).toMatchObject({
      externalBillingEmail: 'billing@acme.eu',
      euVat: 'DE123456789',
    })
    const customer = [...fake.customers.values()].find((c) => c.metadata.workspaceId === owner.workspaceId)!
    expect(customer).toMatchObject({ email: 'billing@acme.eu', metadata: { euVat: 'DE123456789' } })
  })
})
