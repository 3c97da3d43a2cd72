import { expect, test } from '@playwright/test'
import { axeOn } from './helpers'

/** /api: the OpenAPI document as a reference page, rendered by our own copy of Swagger UI under the strict CSP. */
test('the API reference lists every group, opens an operation and breaks no CSP rule', async ({ page }) => {
  const refused: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text())
  })
  const outside: string[] = []
  page.on('request', (r) => {
    if (!r.url().startsWith('http://127.0.0.1') && !r.url().startsWith('data:')) outside.push(r.url())
  })
  await page.goto('/api')
  await expect(page.getByRole('heading', { name: 'API reference', level: 1 })).toBeVisible()
  await expect(page.getByRole('link', { name: 'the OpenAPI document' })).toHaveAttribute(
    'href',
    '/v1/openapi.json',
  )
  // Swagger UI shows the document's title and its tags. Its resolver takes ~3 s of CPU on a quiet
  // core for our OpenAPI 3.1 document, four times that on a busy one: until then the page says so.
  await expect(page.getByRole('heading', { name: /Storymap API/ })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('status').filter({ hasText: 'Loading the reference…' })).toBeHidden()
  for (const tag of ['Projects', 'Cards', 'API tokens', 'History'])
    await expect(page.locator('.opblock-tag', { hasText: new RegExp(`^${tag}$`) })).toBeVisible()

  // Each group opens on its own; every one of its operations is then listed.
  const history = page.locator('.opblock-tag', { hasText: /^History$/ })
  await history.click()
  await expect(history).toHaveAttribute('data-is-open', 'true')
  const operation = page.locator('.opblock', { hasText: '/v1/projects/{id}/undo' }).first()
  await operation.locator('.opblock-summary-control').click()
  await expect(operation.getByText('Undo your last change here').first()).toBeVisible()
  await expect(operation.getByText('nothing_to_undo').first()).toBeVisible()

  expect(refused).toEqual([])
  expect(outside).toEqual([])
  const results = await axeOn(page).include('main > h1').include('main > p').analyze()
  expect(results.violations).toEqual([])
})
