import { expect, test, type BrowserContext } from '@playwright/test'
import { signUp } from '../support/client'
import { deliver, FakeStripe } from '../support/fake-stripe'
import { startServer, type RunningServer } from '../support/server'

/** Hosted mode with TRIAL_DAYS=0: its own server, with the fake Stripe, shared by this file's tests. */
test.describe.configure({ mode: 'serial' })

let fake: FakeStripe
let server: RunningServer
test.beforeAll(async () => {
  fake = await new FakeStripe().start()
  server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '0',
    STRIPE_SECRET_KEY: 'sk_test_fake',
    STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
    STRIPE_PRICE_BASIC: 'price_basic',
    STRIPE_API_URL: fake.url,
  })
})
test.afterAll(async () => {
  await server?.stop()
  await fake?.stop()
})

/** A new owner, signed in through the API; the browser context gets the session cookie. */
async function ownerIn(context: BrowserContext) {
  const owner = await signUp(server.url)
  await context.addCookies(
    [...owner.client.cookies].map(([name, value]) => ({ name, value, url: server.url })),
  )
  return owner
}

test('an ended trial is view only in the API and the browser; paying through checkout makes it editable', async ({
  page,
  context,
}) => {
  const owner = await ownerIn(context)
  const refused = await owner.client.post(`/v1/projects/${crypto.randomUUID()}`, { title: 'Roadmap' })
  expect(refused).toMatchObject({ status: 403, json: { error: 'plan_inactive' } })

  await page.goto(`${server.url}/${owner.workspaceName}`)
  await expect(
    page.getByText('The plan of this workspace is inactive, so the workspace is view only.'),
  ).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'New project' })).toHaveCount(0)

  await page.getByRole('link', { name: 'Choose a plan' }).click()
  await expect(page.getByRole('heading', { name: 'Sign up for a paid plan' })).toBeVisible()
  await expect(page.getByText('Inactive (trial ended)')).toBeVisible()
  await expect(page.getByLabel('Team plan: $9 per editor per month')).toBeChecked()
  const editors = page.getByLabel('Number of editors')
  await editors.fill('0')
  await editors.blur()
  await expect(page.getByText('At least one editor is required')).toBeVisible()
  await editors.fill('3')
  await expect(page.getByText('Total: $27 per month')).toBeVisible()
  await expect(page.getByText('At least one editor is required')).toHaveCount(0)
  await page.getByRole('button', { name: 'Go to checkout' }).click()

  // The browser is at (the fake) Stripe Checkout; the customer pays and Stripe tells the app.
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible()
  const { session } = fake.completeCheckout(new URL(page.url()).pathname.split('/').pop()!)
  expect(session.line_items[0]).toMatchObject({ price: 'price_basic', quantity: '3' })
  expect((await deliver(server.url, fake.event('checkout.session.completed', session))).status).toBe(200)
  await page.goto(session.success_url.replace(/^https?:\/\/[^/]+/, server.url))
  await expect(page.getByRole('heading', { name: 'Plan change successful!' })).toBeVisible()

  await page.getByRole('link', { name: 'Home' }).click()
  await expect(page.getByRole('link', { name: 'New project' })).toBeVisible()
  await expect(page.getByText(/plan of this workspace is inactive/)).toHaveCount(0)
  await page.goto(`${server.url}/${owner.workspaceName}/settings`)
  const plan = page.getByRole('region', { name: 'Plan' })
  await expect(plan.getByText('Team', { exact: true })).toBeVisible()
  await expect(plan.getByText('Active (subscribed to a paid monthly plan)')).toBeVisible()
  await expect(plan.getByText('1 of 3 paid')).toBeVisible()
})

test('a paid plan that lapses makes an open board view only after the next page', async ({
  page,
  context,
}) => {
  const owner = await ownerIn(context)
  const checkout = await owner.client.post('/v1/subscription/checkoutsession', { plan: 'basic', quantity: 1 })
  const { session, subscription } = fake.completeCheckout(checkout.json.id)
  await deliver(server.url, fake.event('checkout.session.completed', session))
  expect((await owner.client.post(`/v1/projects/${crypto.randomUUID()}`, { title: 'Launch' })).status).toBe(
    200,
  )

  await page.goto(`${server.url}/${owner.workspaceName}`)
  await page.getByRole('link', { name: 'Launch' }).click()
  await expect(page.getByRole('button', { name: 'Add goal' })).toBeVisible()

  await deliver(
    server.url,
    fake.event('invoice.payment_failed', { id: 'in_2', object: 'invoice', subscription: subscription.id }),
  )
  await page.reload()
  await expect(page.getByText('VIEW ONLY', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Add goal' })).toHaveCount(0)
  await expect(
    page.getByText('The plan of this workspace is inactive, so the workspace is view only.'),
  ).toBeVisible()
})
