import { expect, test, type Locator, type Page } from '@playwright/test'
import Database from 'better-sqlite3'
import path from 'node:path'
import { boardReady, seedMap, signIn, type MapShape } from './map-fixture'

/** The e2e server's SQLite file (playwright.config.ts passes the folder to workers). */
export function e2eDatabase() {
  return new Database(path.join(process.env.E2E_DATA_DIR!, 'storymap.db'))
}

export async function createProject(page: Page, title = 'Online shop') {
  await page.getByRole('link', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create project' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
}

/** The `New goal`, `New release after …`, `New activity in …` or `New feature in …` modal. */
export const newCardDialog = (page: Page) =>
  page.getByRole('dialog', { name: /^New (goal|release|activity|feature)\b/ })

/** Fills and submits the new card modal. */
export async function newCard(page: Page, title: string) {
  const dialog = newCardDialog(page)
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog).toBeHidden()
}

type CardKind = 'Goal' | 'Activity' | 'Release' | 'Feature'
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A card tile: its accessible name is its title, then its kind (`Pay (feature)`, `Pay (feature, closed)`). */
export const card = (page: Page | Locator, kind: CardKind, title: string) =>
  page.getByRole('link', {
    name: new RegExp(`^${escapeRegExp(title)} \\(${kind.toLowerCase()}(, closed)?\\)$`),
  })

/** Every card tile of a kind inside `scope`, in page order. */
export const cardsOf = (scope: Page | Locator, kind: CardKind) =>
  scope.getByRole('link', { name: new RegExp(`\\(${kind.toLowerCase()}(, closed)?\\)$`) })

/** Goal "Shop" with activities "Search" and "Pay", releases "MVP" and "Later", three features. */
export const SMALL_MAP: MapShape = {
  title: 'Online shop',
  goals: { Shop: ['Search', 'Pay'] },
  releases: ['MVP', 'Later'],
  features: [
    { title: 'Find by name', cell: ['MVP', 'Search'] },
    { title: 'Filters', cell: ['MVP', 'Search'] },
    { title: 'Card payment', cell: ['MVP', 'Pay'] },
  ],
  persona: false,
}

/**
 * A new owner with the SMALL_MAP board open. The map is made through the /v1 API (building it
 * in the UI is its own journey in board.spec.ts), as the owner, so undo and activity see it.
 */
export async function buildSmallMap(page: Page) {
  const baseURL = test.info().project.use.baseURL!
  const map = await seedMap(baseURL, SMALL_MAP)
  await signIn(page.context(), map, baseURL)
  await page.goto(map.boardPath)
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
  await boardReady(page)
  const { workspaceName, name, email, password } = map.owner
  return { user: { workspaceName, name, email, password }, projectUrl: map.boardPath }
}

type RouterState = {
  navigation: { state: string }
  revalidation: string
  fetchers: Map<string, { state: string }>
}

/**
 * Waits until every board write has reached the server and the page holds its answer: Remix's
 * router (window.__reactRouterDataRouter) has no fetcher, navigation or revalidation under way.
 * (waitForLoadState('networkidle') cannot do this: it fires once per document, so after the first
 * load it answers at once, while a write or its revalidation may still be on the wire.)
 */
export async function settle(page: Page) {
  await page.waitForFunction(() => {
    const state = (window as unknown as { __reactRouterDataRouter?: { state: RouterState } })
      .__reactRouterDataRouter?.state
    return (
      state !== undefined &&
      state.navigation.state === 'idle' &&
      state.revalidation === 'idle' &&
      [...state.fetchers.values()].every((f) => f.state === 'idle')
    )
  })
}

/** The drag library's live region: what a screen reader hears while a card is dragged. */
export const dragAnnouncer = (page: Page) => page.locator('[id^="rfd-announcement-"]')

/**
 * Drags with the keyboard, as @hello-pangea/dnd supports: Space lifts, arrows move, Space drops.
 * Each step waits for the board's screen-reader announcement of that step (`Lifted 'Pay' in MVP /
 * Search, position 1`, `Moved 'Pay' to …`, `Dropped 'Pay' in …`), not for a timer.
 */
export async function keyboardDrag(page: Page, handle: Locator, keys: string[]) {
  const announcer = dragAnnouncer(page)
  await handle.focus()
  await page.keyboard.press('Space')
  await expect(announcer).toContainText(/^Lifted '/)
  for (const key of keys) {
    const before = (await announcer.textContent()) ?? ''
    // The library drops a move pressed while it re-measures its drop targets (its COLLECTING
    // phase): once in a CI run an arrow right after the lift did nothing. A user whose arrow did
    // nothing presses it again, and so does this, after 3 s without a move.
    await expect(async () => {
      await page.keyboard.press(key)
      await expect(announcer, `${key} moved the card`).not.toHaveText(before, { timeout: 3_000 })
    }).toPass({ intervals: [0], timeout: 10_000 })
  }
  await page.keyboard.press('Space')
  await expect(announcer).toContainText(/^Dropped '/)
}

/**
 * Drags with the mouse from `source` onto `target`, dropping once the board announces that the
 * card is over the place `overPlace` (as it names it: `goal Help`, `Later / Search`).
 */
export async function mouseDrag(page: Page, source: Locator, target: Locator, overPlace: string) {
  const from = (await source.boundingBox())!
  const to = (await target.boundingBox())!
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await page.mouse.down()
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 5 })
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 })
  await expect(dragAnnouncer(page)).toContainText(` to ${overPlace}, position `)
  await page.mouse.up()
  await expect(dragAnnouncer(page)).toContainText(/^Dropped '/)
}

/** The id at the end of a card tile's link (`…/w/{id}`, `…/f/{id}`). */
export async function cardId(tile: Locator) {
  return (await tile.getAttribute('href'))!.split('/').pop()!
}

/**
 * Makes the server fail the board commands of the given types (e.g. 'card.rename') with `status`
 * and a JSON error, as a crashed or refusing server would; every other request goes through.
 */
export async function failBoardCommands(page: Page, types: string[], status = 500) {
  await page.route(
    (url) => url.pathname.endsWith('/commands'),
    async (route) => {
      const request = route.request()
      const command =
        request.method() === 'POST' ? (request.postDataJSON() as { type?: string } | null) : null
      if (command?.type && types.includes(command.type)) {
        await route.fulfill({
          status,
          contentType: 'application/json',
          body: JSON.stringify({ ok: false, error: 'server_error', message: 'Internal error' }),
        })
      } else {
        await route.fallback()
      }
    },
  )
}
