import { expect, test } from '@playwright/test'
import { Webhook } from 'standardwebhooks'
import { startReceiver } from '../support/receiver'
import { signUpThroughForm } from './helpers'

/** An owner adds a webhook endpoint in workspace settings, tests it, reads its log, deletes it (CONTRACT §10). */
test('add an endpoint, see its secret once, send a test, see it in the log, delete it', async ({ page }) => {
  const receiver = await startReceiver()
  try {
    const user = await signUpThroughForm(page)
    await page.goto(`/${user.workspaceName}/settings`)
    const section = page.getByRole('region', { name: 'Webhooks' })
    await expect(section.getByText('No endpoints yet.')).toBeVisible()

    // A bad URL is refused in the form, keeping the choices made.
    await section.getByLabel('Endpoint URL').fill('not a url')
    await section.getByLabel('Comments').uncheck()
    await section.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(section.getByText('Enter a valid URL.')).toBeVisible()
    await expect(section.getByLabel('Comments')).not.toBeChecked()

    await section.getByLabel('Endpoint URL').fill(receiver.url)
    await section.getByRole('button', { name: 'Add endpoint' }).click()
    await expect(section.getByRole('status')).toContainText(
      'Copy its signing secret now: it will not be shown again.',
    )
    const secret = await section.getByLabel('Signing secret').inputValue()
    expect(secret).toMatch(/^whsec_/)
    const endpoint = section.getByRole('listitem').filter({ hasText: receiver.url })
    await expect(endpoint).toContainText('All projects · Card changes, Project changes')

    // The secret is not shown again.
    await page.reload()
    await expect(section.getByLabel('Signing secret')).toHaveCount(0)
    expect(await page.content()).not.toContain(secret)

    await endpoint.getByRole('button', { name: 'Send test' }).click()
    await expect(page.getByRole('status').getByText('Test delivered (200)')).toBeVisible()
    const [ping] = await receiver.waitFor(1)
    expect(new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>)).toMatchObject({
      type: 'ping',
    })
    const log = endpoint.getByRole('table', { name: `Delivery log of ${receiver.url}` })
    await expect(log.getByRole('row').nth(1)).toContainText('ping')
    await expect(log.getByRole('row').nth(1)).toContainText('Delivered')
    await expect(log.getByRole('row').nth(1)).toContainText('200')

    // Delete asks once more.
    await endpoint.getByRole('link', { name: `Delete ${receiver.url}` }).click()
    await expect(section.getByText('Deliveries to it stop at once.')).toBeVisible()
    await section.getByRole('button', { name: 'Delete endpoint' }).click()
    await expect(page.getByRole('status').getByText('Endpoint deleted')).toBeVisible()
    await expect(section.getByText('No endpoints yet.')).toBeVisible()
  } finally {
    await receiver.close()
  }
})
