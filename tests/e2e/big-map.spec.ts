import { expect, test, type Page } from '@playwright/test'
import { stringify } from 'csv-stringify/sync'
import { CSV_COLUMNS } from '../../app/features/transfer/csv-cells'
import { signUp } from '../support/client'
import { card, keyboardDrag, settle } from './board-helpers'
import { boardReady } from './map-fixture'

/**
 * A map over 200 features (near-viewport.tsx): 8 goals × 3 activities, 3 releases, 8 features in
 * each cell (576), as wide as three screens. Far cells start as plain tiles and become the drag
 * library's when they come near the screen.
 */
const GOALS = 8
const ACTIVITIES = 3
const RELEASES = 3
const PER_CELL = 8
const title = (g: number, a: number, r: number, f: number) => `G${g} A${a} R${r} F${f}`

function bigMapCsv() {
  const rows: string[][] = []
  for (let r = 1; r <= RELEASES; r++)
    for (let g = 1; g <= GOALS; g++)
      for (let a = 1; a <= ACTIVITIES; a++)
        for (let f = 1; f <= PER_CELL; f++)
          rows.push([`R${r}`, `G${g}`, `G${g} A${a}`, title(g, a, r, f), '', 'OPEN', '', '', '1'])
  return stringify([[...CSV_COLUMNS], ...rows])
}

async function openBigMap(page: Page, baseURL: string) {
  const owner = await signUp(baseURL)
  const res = await owner.client.request('POST', '/v1/projects/import?title=Big%20map', bigMapCsv(), {
    'Content-Type': 'text/csv',
  })
  expect(res.status, res.text).toBe(200)
  await page
    .context()
    .addCookies([...owner.client.cookies].map(([name, value]) => ({ name, value, url: baseURL })))
  await page.goto(`/${owner.workspaceName}/projects/${res.json.project.id}`)
  await boardReady(page)
}

const draggable = (page: Page, name: string) =>
  card(page, 'Feature', name).evaluate((tile) => tile.hasAttribute('data-rfd-drag-handle-draggable-id'))
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))

test('a big map: far cards become draggable as they come near, keeping focus and the Tab stop', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1280, height: 720 })
  await openBigMap(page, baseURL!)
  // Every card is in the page (find-in-page, print, screen readers); only those near are draggable.
  await expect(page.locator('a.feature-card')).toHaveCount(GOALS * ACTIVITIES * RELEASES * PER_CELL)
  await expect.poll(() => draggable(page, title(1, 1, 1, 1))).toBe(true)
  expect(await draggable(page, title(GOALS, ACTIVITIES, 1, 1))).toBe(false)

  // A far card with the focus (as after its dialog, opened from a link, closes) keeps it when
  // the board scrolls to it and its cell is made draggable under it.
  const far = card(page, 'Feature', title(GOALS, ACTIVITIES, 1, 1))
  // The far groups are drawn a moment after the page is live (far-groups.tsx): an undrawn card takes no focus.
  await expect(page.locator('#far-groups')).toBeEmpty()
  await far.evaluate((tile: HTMLElement) => tile.focus({ preventScroll: true }))
  await expect(far).toBeFocused()
  await page.locator('.story-map-wrap').evaluate((board) => board.scrollTo({ left: board.scrollWidth }))
  await expect.poll(() => draggable(page, title(GOALS, ACTIVITIES, 1, 1))).toBe(true)
  await expect(far).toBeFocused()

  // Walking left with the arrow keys scrolls the cells in between in, the focus on each card.
  for (let g = GOALS; g >= 1; g--) {
    for (let a = ACTIVITIES; a >= 1; a--) {
      if (g === GOALS && a === ACTIVITIES) continue
      await page.keyboard.press('ArrowLeft')
      await expect.poll(() => focusedName(page)).toBe(`${title(g, a, 1, 1)} (feature)`)
    }
  }
  await expect.poll(() => draggable(page, title(4, 2, 1, 1))).toBe(true)
  await far.focus()

  // The board is still one Tab stop, the far card focused last.
  await page.keyboard.press('Tab')
  await expect(far).not.toBeFocused()
  await page.keyboard.press('Shift+Tab')
  await expect(far).toBeFocused()

  // And it drags with the keyboard like any other: one place down in its cell.
  await keyboardDrag(page, far, ['ArrowDown'])
  await settle(page)
  const cell = page.locator(`[data-cell]`).filter({ has: far })
  await expect(cell.locator('a.feature-card').nth(0)).toHaveAccessibleName(
    `${title(GOALS, ACTIVITIES, 1, 2)} (feature)`,
  )
  await expect(cell.locator('a.feature-card').nth(1)).toHaveAccessibleName(
    `${title(GOALS, ACTIVITIES, 1, 1)} (feature)`,
  )
  await page.reload()
  await boardReady(page)
  const again = page
    .locator(`[data-cell]`)
    .filter({ has: card(page, 'Feature', title(GOALS, ACTIVITIES, 1, 1)) })
  await expect(again.locator('a.feature-card').nth(1)).toHaveAccessibleName(
    `${title(GOALS, ACTIVITIES, 1, 1)} (feature)`,
  )
})

// By its label, not its role: an undrawn card is out of the accessibility tree until drawn.
const groupOf = (page: Page, name: string) =>
  page.locator(`.cell-group:has(a.feature-card[aria-label^="${name} ("])`)
const drawn = (page: Page, name: string) =>
  groupOf(page, name).evaluate((group) => getComputedStyle(group).contentVisibility !== 'hidden')

test('a big map opens drawing what is near; the rest is drawn right after, at once on a key, and always without JavaScript', async ({
  browser,
  page,
  baseURL,
}) => {
  test.setTimeout(120_000)
  const near = title(1, 1, 1, 1)
  const far = title(GOALS, ACTIVITIES, RELEASES, PER_CELL)
  // A page too busy for idle moments: only what the board opened on is drawn.
  await page.addInitScript(() => {
    window.requestIdleCallback = () => 0
  })
  await page.setViewportSize({ width: 1280, height: 720 })
  await openBigMap(page, baseURL!)
  await expect(card(page, 'Feature', near)).toBeVisible()
  expect(await drawn(page, near)).toBe(true)
  expect(await drawn(page, far)).toBe(false)
  expect(await drawn(page, title(GOALS, 1, 1, 1))).toBe(false)
  // Every card is in the page all along, and the far groups keep their place and width.
  await expect(page.locator('a.feature-card')).toHaveCount(GOALS * ACTIVITIES * RELEASES * PER_CELL)
  const width = await groupOf(page, far).evaluate((group) => group.getBoundingClientRect().width)
  expect(width).toBeGreaterThan(3 * 150)
  // A key (the board's own, or the search's) draws everything at once.
  await page.keyboard.press('Shift')
  await expect.poll(() => drawn(page, far)).toBe(true)
  await page
    .locator('.story-map-wrap')
    .evaluate((board) => board.scrollTo(board.scrollWidth, board.scrollHeight))
  await expect(card(page, 'Feature', far)).toBeVisible()

  // An ordinary page draws the rest on its own, a few releases and goals per idle moment.
  const second = await page.context().newPage()
  await second.setViewportSize({ width: 1280, height: 720 })
  await second.goto(page.url())
  await boardReady(second)
  await expect.poll(() => drawn(second, far)).toBe(true)
  await expect(second.locator('#far-groups')).toBeEmpty()
  await second.close()

  // Without JavaScript nothing waits: the browser draws the groups as they come near.
  const cookies = await page.context().cookies()
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 1280, height: 720 },
  })
  await noScript.addCookies(cookies)
  const plain = await noScript.newPage()
  await plain.goto(page.url())
  await expect(card(plain, 'Feature', near)).toBeVisible()
  expect(await drawn(plain, far)).toBe(true)
  await noScript.close()
})

test("the page names its modules in the answer's Link header, so the browser fetches them while it reads the page", async ({
  page,
  baseURL,
}) => {
  const owner = await signUp(baseURL!)
  const res = await owner.client.request('POST', '/v1/projects/import?title=Big%20map', bigMapCsv(), {
    'Content-Type': 'text/csv',
  })
  await page
    .context()
    .addCookies([...owner.client.cookies].map(([name, value]) => ({ name, value, url: baseURL! })))
  const answer = await page.goto(`/${owner.workspaceName}/projects/${res.json.project.id}`)
  await boardReady(page)
  const header = answer!.headers()['link'] ?? ''
  const inHeader = [...header.matchAll(/<([^>]+)>; rel=modulepreload/g)].map((m) => m[1])
  const inPage = await page.evaluate(() =>
    [...document.querySelectorAll('link[rel="modulepreload"]')].map((l) => l.getAttribute('href')),
  )
  // The modules <Scripts /> lists at the end of the page, the entry's and the board route's among them.
  expect(inHeader.some((href) => href.includes('/entry.client-'))).toBe(true)
  expect(inHeader.some((href) => href.includes('/_workspace.projects._projectId-'))).toBe(true)
  expect(inPage).toEqual(expect.arrayContaining(inHeader))
  // Each is fetched once: the header's early fetch is the one the page uses.
  const fetched = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
  )
  for (const href of inHeader) expect(fetched.filter((path) => path === href)).toHaveLength(1)
})
