import { expect, test, type Page } from '@playwright/test'
import { freePort, startProvider, TEST_CLIENT } from '../support/oidc-provider'
import { startServer } from '../support/server'
import { axeOn } from './helpers'

/** axe's WCAG 2.1 A and AA rules: no serious or critical finding on the page. */
async function expectAccessible(page: Page) {
  const results = await axeOn(page).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
  const findings = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(findings.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/**
 * Single sign-on in a real browser (CONTRACT §11): the `Sign in with …` button on the log-in page,
 * the provider's own log-in and consent pages (oidc-provider on loopback), and back to Storymap
 * signed in, on a server of its own configured for that provider.
 */
test('signs in through the button and the provider’s pages, and account settings show the identity', async ({
  page,
}) => {
  const port = await freePort()
  const appUrl = `http://127.0.0.1:${port}`
  const provider = await startProvider(appUrl)
  const server = await startServer({
    PORT: String(port),
    BASE_URL: appUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_NAME: 'TestIdP',
  })
  try {
    const local = `pat${crypto.randomUUID().slice(0, 8)}`
    const email = `${local}@example.com`
    provider.identities.set('pat', { email, email_verified: true, name: 'Pat Provider' })

    await page.goto(`${appUrl}/account/login`)
    await expectAccessible(page)
    await page.getByRole('link', { name: 'Sign in with TestIdP' }).click()

    // The provider's development log-in page, then its consent page.
    await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
    await page.locator('input[name="login"]').fill('pat')
    await page.locator('input[name="password"]').fill('any password')
    await page.getByRole('button', { name: 'Sign-in' }).click()
    await page.getByRole('button', { name: 'Continue' }).click()

    // Back at Storymap, signed in to a new account with its first workspace.
    await expect(page).toHaveURL(`${appUrl}/${local}`)
    await page.goto(`${appUrl}/account/settings`)
    await expect(page.getByRole('region', { name: 'Single sign-on' })).toContainText(
      `Signed in with TestIdP as ${email}`,
    )
    await expect(page.getByRole('region', { name: 'Name' }).getByLabel('Name')).toHaveValue('Pat Provider')
    await expectAccessible(page)
  } finally {
    await server.stop()
    await provider.close()
  }
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a cancelled sign-in at the provider comes back to the log-in page with the failure text', async ({
    page,
  }) => {
    const port = await freePort()
    const appUrl = `http://127.0.0.1:${port}`
    const provider = await startProvider(appUrl)
    const server = await startServer({
      PORT: String(port),
      BASE_URL: appUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_NAME: 'TestIdP',
    })
    try {
      await page.goto(`${appUrl}/account/signup`)
      await page.getByRole('link', { name: 'Sign in with TestIdP' }).click()
      await expect(page).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`))
      await page.goto(`${page.url()}/abort`)
      await expect(page).toHaveURL(`${appUrl}/account/login`)
      await expect(page.getByRole('alert')).toHaveText('Sign-in with TestIdP failed. Try again.')
    } finally {
      await server.stop()
      await provider.close()
    }
  })
})
