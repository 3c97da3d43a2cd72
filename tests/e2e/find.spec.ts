import { expect, test, type Page } from '@playwright/test'
import { card } from './board-helpers'
import { boardReady, openSeededBoard, seedMap, shownFeatures } from './map-fixture'

const searchField = (page: Page) => page.getByRole('searchbox', { name: 'Search cards' })
const count = (page: Page) => page.getByText(/^\d+ of \d+ (open )?features$/)
/** The text of every search match highlighted on the page (CSS Custom Highlight API). */
const highlighted = (page: Page) =>
  page.evaluate(() => {
    const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get(
      'card-search',
    )
    return [...(highlight ?? [])].map((range) => range.toString())
  })
const stats = (page: Page, release: string) =>
  page.getByRole('region', { name: `Release ${release}` }).locator('.release-stats')

test('search filters at once over titles, descriptions and comments, without case or accents; Escape clears it', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  await expect(count(page)).toHaveText('4 of 4 open features')
  const historyLength = await page.evaluate(() => history.length)
  const serverCalls: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'fetch' || request.resourceType() === 'document')
      serverCalls.push(request.url())
  })

  await page.keyboard.press('/')
  await expect(searchField(page)).toBeFocused()
  await page.keyboard.type('CAFE')
  await expect(count(page)).toHaveText('1 of 4 open features')
  expect(await shownFeatures(page)).toEqual(['Café menu'])
  await expect.poll(() => highlighted(page)).toEqual(['Café'])
  // Goals, activities and releases stay, with the shown features' sums beside the full ones.
  await expect(card(page, 'Goal', 'Help')).toBeVisible()
  await expect(card(page, 'Activity', 'Support')).toBeVisible()
  await expect(card(page, 'Release', 'Later')).toBeVisible()
  await expect(stats(page, 'MVP')).toHaveText('Size 3 of 16 · 1 of 3 features')
  await expect(card(page, 'Goal', 'Shop').getByTitle('Size')).toHaveAttribute('data-text', '3 of 16')

  await searchField(page).fill('drinks') // in the description
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu'])
  await searchField(page).fill('captcha') // in a comment
  await expect.poll(() => shownFeatures(page)).toEqual(['Contact form'])
  await searchField(page).fill('card pay') // every word, in any order
  await expect.poll(() => shownFeatures(page)).toEqual(['Pay by card'])
  await expect.poll(() => highlighted(page)).toEqual(['Pay', 'card'])
  await searchField(page).fill('pay drinks')
  await expect(count(page)).toHaveText('0 of 4 open features')

  await searchField(page).fill('card pay')
  await expect(page).toHaveURL(/[?&]q=card(\+|%20)pay(&|$)/)
  expect(serverCalls, 'typing reloads nothing from the server').toEqual([])
  expect(await page.evaluate(() => history.length), 'typing adds no history entries').toBe(historyLength)

  await page.reload()
  await boardReady(page)
  await boardReady(page)
  await expect(searchField(page)).toHaveValue('card pay')
  await expect(count(page)).toHaveText('1 of 4 open features')
  expect(await shownFeatures(page)).toEqual(['Pay by card'])

  // A card's dialog keeps the search: closing it returns to the same view.
  await card(page, 'Feature', 'Pay by card').click()
  await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
  await expect(page).toHaveURL(/\/f\/[^?]+\?q=card/)
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(`${map.boardPath}?q=card+pay`)
  await expect(count(page)).toHaveText('1 of 4 open features')

  await searchField(page).press('Escape')
  await expect(searchField(page)).toHaveValue('')
  await expect(page).toHaveURL(map.boardPath)
  await expect(count(page)).toHaveText('4 of 4 open features')
})

test('filters: colour, annotation, status, persona and size, combined with the search, as removable chips in the URL', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  await page.getByRole('button', { name: 'Filters', exact: true }).click()
  const colours = page.getByRole('group', { name: 'Color' })
  await colours.getByRole('checkbox', { name: 'Red' }).check()
  await colours.getByRole('checkbox', { name: 'Blue' }).check()
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu', 'Pay by card'])
  await page.getByRole('group', { name: 'Annotation' }).getByRole('checkbox', { name: 'Blocked' }).check()
  await expect.poll(() => shownFeatures(page)).toEqual(['Pay by card'])
  await expect(page).toHaveURL(/\?color=RED&color=BLUE&annotation=BLOCKED$/)

  // Chips remove one value each; the others stay.
  await page.getByRole('button', { name: 'Annotation: Blocked (remove filter)' }).click()
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu', 'Pay by card'])
  await page.getByRole('button', { name: 'Color: Blue (remove filter)' }).click()
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu'])
  await expect(page.getByRole('button', { name: 'Color: Red (remove filter)' })).toBeFocused()
  await searchField(page).fill('search')
  await expect(count(page)).toHaveText('0 of 4 open features')
  await page.getByRole('button', { name: 'Clear filters' }).click()
  await expect.poll(() => shownFeatures(page)).toEqual(['Search by name'])
  await expect(page).toHaveURL(`${map.boardPath}?q=search`)

  // Size from–to, and a persona: the features under the goals that carry it.
  await searchField(page).fill('')
  await page.getByRole('group', { name: 'Size' }).getByLabel('From').fill('3')
  await page.getByRole('group', { name: 'Size' }).getByLabel('to').fill('5')
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu', 'Search by name'])
  await expect(page).toHaveURL(/\?size=3-5$/)
  await expect(page.getByRole('button', { name: 'Size: 3–5 (remove filter)' })).toBeVisible()
  await page.getByLabel('Persona', { exact: true }).selectOption('Pat')
  await expect(count(page)).toHaveText('0 of 4 open features')
  await page.getByRole('button', { name: 'Size: 3–5 (remove filter)' }).click()
  await expect.poll(() => shownFeatures(page)).toEqual(['Contact form'])
  await expect(page).toHaveURL(`${map.boardPath}?persona=${map.persona}`)

  // Status: closed features show with status=closed even though Show closed is off.
  await page.getByRole('button', { name: 'Persona: Pat (remove filter)' }).click()
  await expect(page.getByLabel('Show closed')).not.toBeChecked()
  await page.getByRole('radio', { name: 'Closed' }).check()
  await expect.poll(() => shownFeatures(page)).toEqual(['Refunds'])
  await expect(count(page)).toHaveText('1 of 5 features')
  await page.getByRole('radio', { name: 'Open' }).check()
  await expect(count(page)).toHaveText('4 of 4 open features')
  await page.getByLabel('Show closed').check()
  await expect(count(page)).toHaveText('4 of 5 features')

  // A shared URL opens the same view.
  await page.goto(`${map.boardPath}?annotation=IDEA&annotation=RISKY&size=-2`)
  await boardReady(page)
  await expect.poll(() => shownFeatures(page)).toEqual(['Contact form'])
  await expect(page.getByRole('button', { name: /\(remove filter\)$/ })).toHaveText([
    'Annotation: Risky ✕',
    'Annotation: Idea ✕',
    'Size: up to 2 ✕',
  ])
})

test('the public link and demo mode search and filter too, and keep demo=1', async ({ browser, baseURL }) => {
  const map = await seedMap(baseURL!)
  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await page.goto(`${map.linkPath}?q=card`)
  await boardReady(page)
  await expect(page.getByText('VIEW ONLY', { exact: true })).toBeVisible()
  await expect(count(page)).toHaveText('1 of 4 open features')
  expect(await shownFeatures(page)).toEqual(['Pay by card'])

  await page.goto(`${map.linkPath}?demo=1&color=RED`)
  await boardReady(page)

  await boardReady(page)
  await expect(page.getByText('DEMO MODE', { exact: true })).toBeVisible()
  await expect.poll(() => shownFeatures(page)).toEqual(['Café menu'])
  await searchField(page).fill('menu')
  await expect(page).toHaveURL(`${map.linkPath}?demo=1&q=menu&color=RED`)
  await card(page, 'Feature', 'Café menu').click()
  await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/f/${map.ids.get('Café menu')}\\?demo=1&q=menu&color=RED$`))
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(`${map.linkPath}?demo=1&q=menu&color=RED`)
  await searchField(page).press('Escape')
  await expect(page).toHaveURL(`${map.linkPath}?demo=1&color=RED`)
  await page.getByRole('button', { name: 'Color: Red (remove filter)' }).click()
  await expect(page).toHaveURL(`${map.linkPath}?demo=1`)
  await expect(count(page)).toHaveText('4 of 4 open features')
  await context.close()
})

test('with closed cards hidden the toolbar and the releases count the same features and say they are the open ones', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!)
  const size = (kind: 'Goal' | 'Activity', title: string) => card(page, kind, title).getByTitle('Size')
  // Refunds (Later, size 2) is closed and hidden: no number counts it, and the counts say so.
  await expect(count(page)).toHaveText('4 of 4 open features')
  await expect(stats(page, 'MVP')).toHaveText('Size 16 · 3 features')
  await expect(stats(page, 'Later')).toHaveText('Size 1 · 1 open feature')
  await expect(size('Goal', 'Shop')).toHaveAttribute('data-text', '16')
  await expect(size('Activity', 'Pay')).toHaveAttribute('data-text', '8')

  await page.getByLabel('Show closed').check()
  await expect(count(page)).toHaveText('5 of 5 features')
  await expect(stats(page, 'Later')).toHaveText('Size 3 · 2 features')
  await expect(size('Goal', 'Shop')).toHaveAttribute('data-text', '18')
  await expect(size('Activity', 'Pay')).toHaveAttribute('data-text', '10')
})
