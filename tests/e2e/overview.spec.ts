import fs from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { card, cardsOf, keyboardDrag, mouseDrag, settle } from './board-helpers'
import { expectNoSeriousAxeFindings } from './helpers'
import { boardReady, openSeededBoard, type MapShape } from './map-fixture'

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

test('by keyboard, `c` folds the focused goal or release (from an activity, its goal), says so, and the board stays one Tab stop', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!)
  const said = page.locator('.board-bar [role="status"]')
  const outlined = (tile: ReturnType<typeof card>) => tile.evaluate((el) => getComputedStyle(el).outlineStyle)
  const browse = card(page, 'Activity', 'Browse')
  const shop = card(page, 'Goal', 'Shop')
  await browse.focus()
  let saved = viewSaved(page)
  await page.keyboard.press('c')
  await saved
  // The activity folded away with its goal: the goal's card has the focus, visibly.
  await expect(page.getByRole('button', { name: 'Expand Shop' })).toHaveAttribute('aria-expanded', 'false')
  await expect(browse).toHaveCount(0)
  await expect(card(page, 'Feature', 'Café menu')).toHaveCount(0)
  await expect(shop).toBeFocused()
  expect(await outlined(shop)).not.toBe('none')
  await expect(said).toHaveText('Collapsed goal Shop: 2 activities')

  await page.keyboard.press('c')
  await expect(page.getByRole('button', { name: 'Collapse Shop' })).toHaveAttribute('aria-expanded', 'true')
  await expect(card(page, 'Feature', 'Café menu')).toBeVisible()
  await expect(shop).toBeFocused()
  await expect(said).toHaveText('Expanded goal Shop')

  // On a feature, which sits in a goal and a release at once, `c` folds nothing.
  await card(page, 'Feature', 'Café menu').focus()
  await page.keyboard.press('c')
  await expect(card(page, 'Feature', 'Café menu')).toBeFocused()
  await expect(page.getByRole('button', { name: /^Expand / })).toHaveCount(0)

  // The arrows reach a release's card; `c` folds that release, the focus stays on it.
  await page.keyboard.press('ArrowLeft')
  await expect(card(page, 'Release', 'MVP')).toBeFocused()
  await page.keyboard.press('ArrowDown')
  const later = card(page, 'Release', 'Later')
  await expect(later).toBeFocused()
  saved = viewSaved(page)
  await page.keyboard.press('c')
  await saved
  await expect(release(page, 'Later')).toContainText('2 features · size 3 · 1 of 2 done')
  await expect(card(page, 'Feature', 'Contact form')).toHaveCount(0)
  await expect(later).toBeFocused()
  expect(await outlined(later)).not.toBe('none')
  await expect(said).toHaveText('Collapsed release Later: 2 features · size 3 · 1 of 2 done')
  await expectNoSeriousAxeFindings(page, '#board')
  await expectNoSeriousAxeFindings(page, '.board-bar')

  // Still one Tab stop: Tab goes on past the cards and the fold buttons, Shift+Tab comes back to the card.
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement!.matches('.card-tile, .fold-button'))).toBe(false)
  await page.keyboard.press('Shift+Tab')
  await expect(later).toBeFocused()

  await page.keyboard.press('?')
  const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  const row = shortcuts.getByRole('row', { name: /Collapse or expand the focused goal or release/ })
  await expect(row.locator('kbd')).toHaveText('c')
  await page.keyboard.press('Escape')
  await expect(later).toBeFocused()

  await page.reload()
  await boardReady(page)
  await expect(page.getByRole('button', { name: 'Expand Later' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Collapse Shop' })).toBeVisible()
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

const zoomLevel = (page: Page) => page.locator('.zoom-level')

test('progress: `{d} of {n} done` and a bar per release, `d/n` on goals and activities; live, on the public link, whatever the search', async ({
  page,
  browser,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  const progress = (p: Page, title: string) => release(p, title).locator('.progress-text')
  await expect(progress(page, 'MVP')).toHaveText('0 of 3 done')
  // The closed Refunds counts though Show closed is off.
  await expect(progress(page, 'Later')).toHaveText('1 of 2 done')
  await expect(card(page, 'Goal', 'Shop').locator('.card-progress')).toHaveAttribute('data-text', '1/4')
  await expect(card(page, 'Activity', 'Pay').locator('.card-progress')).toHaveAttribute('data-text', '1/2')
  await expect(card(page, 'Activity', 'Browse').locator('.card-progress')).toHaveAttribute('data-text', '0/2')

  const visitor = await browser.newPage()
  await visitor.goto(map.linkPath)
  await boardReady(visitor)
  await expect(progress(visitor, 'MVP')).toHaveText('0 of 3 done')

  // A search narrows the cards, not the progress.
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('menu')
  await expect(page.getByText('1 of 4 open features')).toBeVisible()
  await expect(progress(page, 'MVP')).toHaveText('0 of 3 done')

  // Someone closes Pay by card (through the API): every board follows.
  const closed = await map.owner.client.post(`/v1/features/${map.ids.get('Pay by card')}/close`)
  expect(closed.status).toBe(200)
  await expect(progress(page, 'MVP')).toHaveText('1 of 3 done')
  await expect(release(page, 'MVP').locator('.progress-bar > span')).toHaveAttribute('style', 'width: 33%;')
  await expect(card(page, 'Goal', 'Shop').locator('.card-progress')).toHaveAttribute('data-text', '2/4')
  await expect(card(page, 'Activity', 'Pay').locator('.card-progress')).toHaveAttribute('data-text', '2/2')
  await expect(progress(visitor, 'MVP')).toHaveText('1 of 3 done')

  // The public link keeps its folds in its browser.
  await visitor.getByRole('button', { name: 'Collapse MVP' }).click()
  await expect(release(visitor, 'MVP')).toContainText('3 features · size 16 · 1 of 3 done')
  await visitor.reload()
  await expect(visitor.getByRole('button', { name: 'Expand MVP' })).toBeVisible()
  await visitor.close()
})

test('zoom by keys and buttons, all in the browser; cards open, move by keyboard and mouse at 75 %; 25 % tiles keep their title', async ({
  page,
  baseURL,
}) => {
  await openSeededBoard(page, baseURL!)
  const asked: string[] = []
  page.on('request', (r) => {
    if (['fetch', 'xhr', 'document'].includes(r.resourceType()) && !r.url().endsWith('/view'))
      asked.push(`${r.method()} ${r.url()}`)
  })
  const cafe = card(page, 'Feature', 'Café menu')
  await cafe.focus()
  await page.keyboard.press('-')
  await expect(zoomLevel(page)).toHaveText('75 %')
  await expect(cafe).toBeFocused()
  expect(await cafe.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none')
  expect((await cafe.boundingBox())!.width).toBeLessThan(140)
  expect(asked).toEqual([])

  await page.keyboard.press('ArrowRight')
  await expect(card(page, 'Feature', 'Pay by card')).toBeFocused()
  await keyboardDrag(page, card(page, 'Feature', 'Pay by card'), ['ArrowDown'])
  await settle(page)
  await expect(release(page, 'Later').getByRole('group', { name: 'Later / Pay' })).toContainText(
    'Pay by card',
  )
  await mouseDrag(
    page,
    cafe,
    release(page, 'Later').getByRole('group', { name: 'Later / Browse' }),
    'Later / Browse',
  )
  await settle(page)
  await expect(release(page, 'Later').getByRole('group', { name: 'Later / Browse' })).toContainText(
    'Café menu',
  )
  await card(page, 'Feature', 'Search by name').focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  await page.keyboard.press('Escape')

  asked.length = 0
  await page.getByRole('button', { name: 'Zoom out' }).click()
  await page.getByRole('button', { name: 'Zoom out' }).click()
  await expect(zoomLevel(page)).toHaveText('25 %')
  const tile = card(page, 'Feature', 'Search by name')
  await expect(tile).toHaveAttribute('title', 'Search by name')
  await tile.focus()
  await page.keyboard.press('ArrowUp')
  await expect(card(page, 'Activity', 'Browse')).toBeFocused()
  await page.keyboard.press('0')
  await expect(zoomLevel(page)).toHaveText('100 %')
  await page.getByRole('button', { name: 'Zoom in' }).click()
  await expect(zoomLevel(page)).toHaveText('100 %')
  expect(asked).toEqual([])
  await expect(tile).not.toHaveAttribute('title')
})

test('at 25 % a card is one element: colour, first words, its title as name and tooltip, its place and details as description; only an empty cell keeps its +', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  const renamed = await map.owner.client.post(`/v1/features/${map.ids.get('Search by name')}/rename`, {
    title: 'Search by name or by barcode',
  })
  expect(renamed.status).toBe(200)
  const search = card(page, 'Feature', 'Search by name or by barcode')
  await expect(search).toBeVisible()
  const inBoard = () => page.evaluate(() => document.querySelectorAll('#board *').length)
  const at100 = await inBoard()
  for (const level of ['75 %', '50 %', '25 %']) {
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await expect(zoomLevel(page)).toHaveText(level)
  }
  await expect(search).toHaveText('Search by name…')
  await expect(search).toHaveAttribute('title', 'Search by name or by barcode')
  // What it said at 100 %, the drag library's instructions last.
  await expect(search).toHaveAccessibleDescription(/^In MVP \/ Browse\. Size 5 Space lifts the card\./)
  const cafe = card(page, 'Feature', 'Café menu')
  await expect(cafe).toHaveAccessibleDescription(/^In MVP \/ Browse\. Size 3, Risky Space lifts/)
  // One element each, the colour its left border.
  expect(await cafe.evaluate((el) => el.children.length)).toBe(0)
  expect(await cafe.evaluate((el) => getComputedStyle(el).borderLeftColor)).not.toBe(
    await search.evaluate((el) => getComputedStyle(el).borderLeftColor),
  )
  // A cell with cards has no `+` (n on a card adds there); an empty one keeps it, and the arrows reach it.
  await expect(page.getByRole('button', { name: 'Add feature to MVP / Browse' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add feature to MVP / Support' })).toBeVisible()
  expect(await inBoard()).toBeLessThan(at100 - 10)
  // A row's parts not drawn yet (far off the screen on a big map) are as tall as its fullest cell
  // at this zoom, not a fixed 150 px: that made every 25 % row four times its height.
  const estimates = await page.evaluate(() =>
    [...document.querySelectorAll('.release-cells')].map((row) => [
      getComputedStyle(row).getPropertyValue('--row-cards'),
      getComputedStyle(row.querySelector('.cell-group')!).containIntrinsicHeight,
    ]),
  )
  expect(estimates[0]).toEqual(['2', 'auto 40px'])
  await card(page, 'Feature', 'Pay by card').focus()
  await page.keyboard.press('ArrowRight')
  await expect(page.getByRole('button', { name: 'Add feature to MVP / Support' })).toBeFocused()
  await cafe.focus()
  await page.keyboard.press('n')
  const dialog = page.getByRole('dialog', { name: 'New feature in MVP › Browse' })
  await expect(dialog).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(cafe).toBeFocused()
  // The search still highlights what it found in a 25 % tile's words.
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('barcode name')
  await expect(page.getByText('1 of 4 open features')).toBeVisible()
  await expect
    .poll(() =>
      page.evaluate(() => {
        const highlight = (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get(
          'card-search',
        )
        return [...(highlight ?? [])].map((r) => r.toString())
      }),
    )
    .toEqual(['name'])
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('')

  await cafe.focus()
  await page.keyboard.press('0')
  await expect(zoomLevel(page)).not.toHaveText('25 %')
  await expect(search.locator('.card-title')).toHaveText('Search by name or by barcode')
  await expect(search).toHaveAccessibleDescription(/^In MVP \/ Browse\. Size 5 Space lifts the card\./)
  await expect(page.getByRole('button', { name: 'Add feature to MVP / Browse' })).toHaveCount(1)
})

/** Two goals of six activities and six releases, each with three features: wider and taller than the window. */
const WIDE: MapShape = {
  title: 'Wide map',
  goals: {
    Buy: ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'],
    Run: ['B1', 'B2', 'B3', 'B4', 'B5', 'B6'],
  },
  releases: ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'],
  features: ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].flatMap((r) =>
    [1, 2, 3].map((n) => ({ title: `${r} card ${n}`, cell: [r, 'A1'] as [string, string] })),
  ),
  persona: false,
}

test('headers stay in view while the map scrolls, its scrollbar too; Fit picks the largest level that fits', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 })
  await openSeededBoard(page, baseURL!, '', WIDE)
  const box = page.locator('.story-map-wrap')
  const view = (await box.boundingBox())!
  // The board's box ends inside the window, so its horizontal scrollbar is on screen.
  expect(view.y + view.height).toBeLessThanOrEqual(720)
  expect(
    await box.evaluate((el) => el.scrollWidth > el.clientWidth && el.scrollHeight > el.clientHeight),
  ).toBe(true)

  await box.evaluate((el) => el.scrollTo({ top: 700, left: 1300 }))
  await expect.poll(() => box.evaluate((el) => el.scrollTop)).toBe(700)
  const inView = async (title: string, kind: 'Goal' | 'Activity' | 'Release') => {
    const b = (await card(page, kind, title).boundingBox())!
    return (
      b.y >= view.y - 1 &&
      b.y + b.height <= view.y + view.height &&
      b.x >= view.x - 1 &&
      b.x < view.x + view.width
    )
  }
  expect(await inView('Run', 'Goal')).toBe(true)
  expect(await inView('B3', 'Activity')).toBe(true)
  // The first release whose name is below the sticky headers keeps it at the left edge.
  const headersBottom = (await page.locator('.goal-row').boundingBox())!
  const title = await page.locator('.release').evaluateAll(
    (rows, below) =>
      rows
        .find((r) => r.querySelector('.release-header')!.getBoundingClientRect().top >= (below as number))!
        .getAttribute('aria-label')!
        .replace('Release ', ''),
    headersBottom.y + headersBottom.height,
  )
  expect(await inView(title, 'Release')).toBe(true)
  const releaseCard = (await card(page, 'Release', title).boundingBox())!
  expect(releaseCard.x - view.x).toBeLessThan(60)

  await page.keyboard.press('0')
  await expect(zoomLevel(page)).toHaveText('50 %')
  expect(await box.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true)
})

test('Export PNG downloads `{project title}.png`: the whole map, folded as shown, at 2×', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1000, height: 600 })
  await openSeededBoard(page, baseURL!, '', WIDE)
  await page.getByRole('button', { name: 'Collapse R6' }).click()
  const board = page.locator('#board')
  const size = await board.evaluate((el) => ({ width: el.scrollWidth, height: el.scrollHeight }))
  // Wider and taller than the window: more than what is on screen.
  expect(size.width).toBeGreaterThan(1000)
  expect(size.height).toBeGreaterThan(600)

  await openMenu(page)
  const download = page.waitForEvent('download')
  await page.getByRole('menuitem', { name: 'Export PNG' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('Wide map.png')
  const bytes = fs.readFileSync((await file.path())!)
  // The PNG signature, then the IHDR chunk: width and height, big-endian, at bytes 16 and 20.
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR')
  expect(Math.abs(bytes.readUInt32BE(16) - size.width * 2)).toBeLessThanOrEqual(2)
  expect(Math.abs(bytes.readUInt32BE(20) - size.height * 2)).toBeLessThanOrEqual(2)
  expect(bytes.length).toBeGreaterThan(20_000)
})
