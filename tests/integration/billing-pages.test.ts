import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember as addMemberRow } from '../support/board'
import { Client, signUp } from '../support/client'
import { deliver, FakeStripe } from '../support/fake-stripe'
import { startServer, type RunningServer } from '../support/server'

/** The plan page and the Plan / Billing sections of workspace settings, without JavaScript. */
let fake: FakeStripe
let server: RunningServer
beforeAll(async () => {
  fake = await new FakeStripe().start()
  server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '3',
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_API_URL: fake.url,
    TEAM_PLAN_PRICE: '12',
  })
})
afterAll(async () => {
  await server?.stop()
  await fake?.stop()
})

type User = Awaited<ReturnType<typeof signUp>>
const form = (fields: Record<string, string>) => new URLSearchParams(fields)
/** Text of a server-rendered page, with React's comment markers removed. */
const textOf = (html: string) => html.replace(/<!-- -->/g, '')

const addMember = (owner: User, user: User, level: 'EDITOR' | 'ADMIN') =>
  addMemberRow(server.dbPath, owner.workspaceId, user.account.id, level)

describe('the subscription page', () => {
  it('offers a trial workspace checkout with the editor count and total price', async () => {
    const owner = await signUp(server.url)
    const path = `/${owner.workspaceName}/subscription`
    const page = textOf((await owner.client.get(path)).text)
    for (const text of [
      'Sign up for a paid plan',
      'Team plan: $12 per editor per month',
      'Total: $12 per month',
      'Go to checkout',
      'Active (trial)',
      'Trial',
    ])
      expect(page).toContain(text)
    expect(page).not.toContain('Cancel plan')

    const none = await owner.client.post(path, form({ plan: 'basic', quantity: '0' }))
    expect(none.status).toBe(200)
    expect(none.text).toContain('At least one editor is required')
    const go = await owner.client.post(path, form({ plan: 'basic', quantity: '4' }))
    expect(go.status).toBe(302)
    const url = go.headers.get('location')!
    expect(url).toMatch(new RegExp(`^${fake.url}/checkout/cs_test_`))
    expect(fake.sessions.get(url.split('/').pop()!)).toMatchObject({
      line_items: [{ price: 'price_basic', quantity: '4' }],
    })
  })

  it('changes or cancels a running paid plan, never below the editors the workspace has', async () => {
    const owner = await signUp(server.url)
    const mate = await signUp(server.url)
    addMember(owner, mate, 'EDITOR')
    const checkout = await owner.client.post('/v1/subscription/checkoutsession', {
      plan: 'basic',
      quantity: 2,
    })
    const { session } = fake.completeCheckout(checkout.json.id)
    await deliver(server.url, fake.event('checkout.session.completed', session))

    const path = `/${owner.workspaceName}/subscription`
    const page = textOf((await owner.client.get(path)).text)
    for (const text of [
      'Change plan',
      'Team plan',
      'Cancel plan',
      'Total: $24 per month',
      'Active (subscribed to a paid monthly plan)',
    ])
      expect(page).toContain(text)
    const below = await owner.client.post(path, form({ plan: 'basic', quantity: '1' }))
    expect(below.text).toContain('Need to have at least 2 editors.')
    const more = await owner.client.post(path, form({ plan: 'basic', quantity: '3' }))
    expect([more.status, more.headers.get('location')]).toEqual([302, '/account/success'])
    expect(textOf((await owner.client.get('/account/success')).text)).toContain('Plan change successful!')
    const cancel = await owner.client.post(path, form({ plan: 'cancel' }))
    expect(cancel.headers.get('location')).toBe('/account/success')
    expect(textOf((await owner.client.get(path)).text)).toMatch(/Your plan is canceled and ends on/)
  })

  it('sends a provider failure to /account/cancel with the provider message', async () => {
    const owner = await signUp(server.url)
    fake.failNext(/^\/v1\/checkout\/sessions$/, 'Your card was declined.')
    const res = await owner.client.post(
      `/${owner.workspaceName}/subscription`,
      form({ plan: 'basic', quantity: '1' }),
    )
    expect([res.status, res.headers.get('location')]).toEqual([302, '/account/cancel'])
    const page = textOf((await owner.client.get('/account/cancel')).text)
    expect(page).toContain('Something went wrong')
    expect(page).toContain('Your card was declined.')
  })

  it('shows others the owner-only text and refuses their posts', async () => {
    const owner = await signUp(server.url)
    const admin = await signUp(server.url)
    addMember(owner, admin, 'ADMIN')
    const path = `/${owner.workspaceName}/subscription`
    const page = textOf((await admin.client.get(path)).text)
    expect(page).toContain(
      'Only an owner of the workspace can change the workspace subscription. Please contact an owner.',
    )
    expect(page).not.toContain('Go to checkout')
    const calls = fake.calls.length
    const post = await admin.client.post(path, form({ plan: 'basic', quantity: '3' }))
    expect(post.status).toBe(200)
    expect(post.text).toContain('Only an owner of the workspace can change the workspace subscription.')
    expect(fake.calls.length).toBe(calls)
  })
})

describe('workspace settings in hosted mode', () => {
  it('shows the owner Plan and Billing information; saves billing with the SPEC banner', async () => {
    const owner = await signUp(server.url)
    const path = `/${owner.workspaceName}/settings`
    const page = textOf((await owner.client.get(path)).text)
    for (const text of [
      'Plan',
      'Trial',
      'Active (trial)',
      'Change plan',
      'Billing information',
      'Billing email',
      'EU VAT',
    ])
      expect(page).toContain(text)
    // The trial banner of SPEC §6 (fewer than 6 days left).
    expect(page).toContain('Your trial ends in 3 days.')

    const bad = await owner.client.post(
      path,
      form({ intent: 'billingInfo', externalBillingEmail: 'nope', euVat: '' }),
    )
    expect(bad.status).toBe(200)
    expect(bad.text).toContain('Invalid email address')
    const empty = await owner.client.post(
      path,
      form({ intent: 'billingInfo', externalBillingEmail: '', euVat: '' }),
    )
    expect(empty.text).toContain('Required.')
    const ok = await owner.client.post(
      path,
      form({ intent: 'billingInfo', externalBillingEmail: 'pay@acme.eu', euVat: 'NL123' }),
    )
    expect(ok.status).toBe(302)
    const after = textOf((await owner.client.get(ok.headers.get('location')!)).text)
    expect(after).toContain('Settings changed')
    expect(after).toContain('value="pay@acme.eu"')
    expect(after).toContain('value="NL123"')
  })

  it('shows other members no billing, only the owner-only text in Plan', async () => {
    const owner = await signUp(server.url)
    const admin = await signUp(server.url)
    addMember(owner, admin, 'ADMIN')
    const page = textOf((await admin.client.get(`/${owner.workspaceName}/settings`)).text)
    expect(page).toContain(
      'Only an owner of the workspace can change the workspace subscription. Please contact an owner.',
    )
    expect(page).not.toContain('Billing information')
    const post = await admin.client.post(
      `/${owner.workspaceName}/settings`,
      form({ intent: 'billingInfo', externalBillingEmail: 'x@y.eu', euVat: '' }),
    )
    expect(post.status).toBe(302)
    expect(textOf((await admin.client.get(post.headers.get('location')!)).text)).toContain(
      'Only an owner of the workspace can change the workspace subscription.',
    )
    expect((await new Client(server.url).get(`/${owner.workspaceName}/subscription`)).status).toBe(302)
  })
})
