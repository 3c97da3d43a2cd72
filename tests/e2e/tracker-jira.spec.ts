import { expect, test } from '@playwright/test'
import { FakeJira } from '../support/fake-jira'
import { buildSmallMap, card, settle } from './board-helpers'
import { axeOn } from './helpers'

/**
 * Jira Cloud through the Tracker dialog (CONTRACT §14), against the fake Jira on loopback: link,
 * create an issue from the card (its key and Jira's status name), close it in Jira, see it closed
 * live, undo (the issue goes back to a `new` status).
 */
let jira: FakeJira

test.beforeAll(async () => {
  jira = await new FakeJira().start()
  jira.addProject('SHOP', { name: 'Shop' })
  jira.addUser('ada@example.com', 'atlassian-e2e')
})
test.afterAll(async () => {
  await jira?.stop()
})

test('link Jira, create an issue, close it in Jira, see it live, undo', async ({ page }) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Tracker' }).click()
  const dialog = page.getByRole('dialog', { name: 'Tracker' })
  await dialog.getByLabel('Tracker').selectOption('jira')
  await expect(dialog.getByText('id.atlassian.com')).toBeVisible()
  await dialog.getByLabel('Jira site').fill(jira.url)
  await dialog.getByLabel('Project key').fill('SHOP')
  await dialog.getByLabel('E-mail').fill('ada@example.com')
  await dialog.getByLabel('Token').fill('atlassian-e2e')
  await dialog.getByRole('button', { name: 'Link', exact: true }).click()
  await expect(dialog.getByRole('status')).toHaveText('Linked to Jira SHOP.')
  const results = await axeOn(page)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .include('.modal')
    .analyze()
  expect(
    results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([])
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()

  await card(page, 'Feature', 'Card payment').click()
  const feature = page.getByRole('dialog', { name: 'Feature card' })
  await feature.getByRole('button', { name: 'Create issue' }).click()
  await expect(feature.getByRole('link', { name: 'SHOP-1' })).toBeFocused()
  await expect(feature.getByText('To Do', { exact: true })).toBeVisible()
  await feature.getByRole('button', { name: 'Close', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment').getByTestId('card-issue')).toHaveText('SHOP-1')
  await settle(page)

  await page.getByLabel('Show closed').check()
  jira.advance(61_000)
  await jira.edit('SHOP-1', { status: 'Done' })
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature, closed)', {
    timeout: 15_000,
  })
  await settle(page)
  await page.getByRole('button', { name: 'Undo', exact: true }).click()
  await expect(card(page, 'Feature', 'Card payment')).toHaveAccessibleName('Card payment (feature)')
  await expect
    .poll(
      () => (jira.issue('SHOP-1')!.fields.status as { statusCategory: { key: string } }).statusCategory.key,
      {
        timeout: 15_000,
      },
    )
    .not.toBe('done')
})
