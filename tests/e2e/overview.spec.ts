import { expect, test, type Page } from '@playwright/test'
import { card, cardsOf, mouseDrag, settle } from './board-helpers'
import { boardReady, openSeededBoard } from './map-fixture'

/**
 * The whole map at a glance (CONTRACT §15): folds kept per member, progress, sticky headers,
 * zoom. The coffee shop map (map-fixture.ts): MVP holds Café menu (3), Search by name (5) and
 * Pay by card (8); Later holds Refunds (2, closed) and Contact form (1).
 */
const release = (page: Page, title: string) => page.getByRole('region', { name: `Release ${title}` })
const openMenu = async (page: Page) => page.getByRole('button', { name: 'Project menu' }).click()
const viewSaved = (page: Page) =>
  page.waitForResponse((r) => r.url().endsWith('/view') && r.request().method() === 'PUT')

test('folds goals and releases; cards leave the page; the view comes back after a reload and in another tab', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  const collapseShop = page.getByRole('button', { name: 'Collapse Shop' })
  await expect(collapseShop).toHaveAttribute('aria-expanded', 'true')
  let saved = viewSaved(page)
  await collapseShop.click()
  await saved
  const expandShop = page.getByRole('button', { name: 'Expand Shop' })
  await expect(expandShop).toHaveAttribute('aria-expanded', 'false')
  await expect(expandShop).toBeFocused()
  // Shop's activities and cards left the page; its column says what it holds.
  await expect(card(page, 'Activity', 'Browse')).toHaveCount(0)
  await expect(card(page, 'Feature', 'Café menu')).toHaveCount(0)
  await expect(page.getByText('2 activities')).toBeVisible()
  await expect(release(page, 'MVP').locator('.folded-count')).toHaveText('3 features')
  await expect(card(page, 'Feature', 'Contact form')).toBeVisible()

  saved = viewSaved(page)
  await page.getByRole('button', { name: 'Collapse Later' }).click()
  await saved
  await expect(release(page, 'Later')).toContainText('2 features · size 3 · 1 of 2 done')
  await expect(card(page, 'Feature', 'Contact form')).toHaveCount(0)
  await expect(card(page, 'Release', 'Later')).toBeVisible()

  await page.reload()
  await boardReady(page)
  await expect(page.getByRole('button', { name: 'Expand Shop' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Expand Later' })).toBeVisible()
  await expect(card(page, 'Feature', 'Café menu')).toHaveCount(0)

  const other = await page.context().newPage()
  await other.goto(map.boardPath)
  await boardReady(other)
  await expect(other.getByRole('button', { name: 'Expand Shop' })).toBeVisible()
  await expect(cardsOf(other, 'Feature')).toHaveCount(0)

  saved = viewSaved(other)
  await openMenu(other)
  await other.getByRole('menuitem', { name: 'Expand all' }).click()
  await saved
  await expect(cardsOf(other, 'Feature')).toHaveCount(4)
  await openMenu(other)
  saved = viewSaved(other)
  await other.getByRole('menuitem', { name: 'Collapse all' }).click()
  await saved
  await expect(cardsOf(other, 'Feature')).toHaveCount(0)
  await expect(cardsOf(other, 'Activity')).toHaveCount(0)
  await expect(other.getByRole('button', { name: /^Expand / })).toHaveCount(4)
  await other.close()
})

test('a feature dropped on a folded release lands in it, and its counts follow', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!)
  await page.getByRole('button', { name: 'Collapse Later' }).click()
  await expect(release(page, 'Later')).toContainText('2 features · size 3 · 1 of 2 done')
  await mouseDrag(
    page,
    card(page, 'Feature', 'Pay by card'),
    release(page, 'Later').locator('.folded-release'),
    'release Later',
  )
  await settle(page)
  await expect(release(page, 'Later')).toContainText('3 features · size 11 · 1 of 3 done')
  await expect(card(page, 'Feature', 'Pay by card')).toHaveCount(0)
  await page.getByRole('button', { name: 'Expand Later' }).click()
  await expect(release(page, 'Later').getByRole('group', { name: 'Later / Pay' })).toContainText(
    'Pay by card',
  )
})
