import { expect, test, type Page } from '@playwright/test'
import { boardReady, seedMap, signIn } from './map-fixture'

/** Holds the page's scripts back until `release` is called: the board is shown but not hydrated. */
async function holdScripts(page: Page) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
    async (route) => {
      await released
      await route.continue()
    },
  )
  return release
}

/** Every page load of the tab (a click the board did not keep would be a second one). */
function documentLoads(page: Page) {
  const loads: string[] = []
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame()) loads.push(request.url())
  })
  return loads
}

/** A signed-in member's board, shown with its scripts held back; every page load is counted. */
async function openBoardBeforeItsScript(page: Page, baseURL: string) {
  const map = await seedMap(baseURL)
  await signIn(page.context(), map, baseURL)
  const release = await holdScripts(page)
  const loads = documentLoads(page)
  await page.goto(map.boardPath, { waitUntil: 'commit' })
  return { map, release, loads }
}

test('a card clicked before the board has its script opens in place once it has', async ({ page, baseURL }) => {
  const { map, release, loads } = await openBoardBeforeItsScript(page, baseURL!)
  const tile = page.getByRole('link', { name: 'Café menu (feature)' })
  await tile.click()
  // Nothing is lost and nothing reloads while the script is on its way…
  await expect(page).toHaveURL(new RegExp(`${map.boardPath}$`))
  release()
  // …and the card opens as soon as it has come, in the same page.
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Café menu. Edit title' })).toBeVisible()
  await expect(page.locator('html')).not.toHaveClass(/card-opening/)
  expect(loads).toHaveLength(1)
  await boardReady(page)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`${map.boardPath}$`))
})

test('Enter on a card before the board has its script opens it too; later clicks are the board’s own', async ({ page, baseURL }) => {
  const { release, loads } = await openBoardBeforeItsScript(page, baseURL!)
  const tile = page.getByRole('link', { name: 'Café menu (feature)' })
  await tile.focus()
  await page.keyboard.press('Enter')
  release()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await expect(dialog.getByRole('button', { name: 'Café menu. Edit title' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  // Hydrated: a click opens the card straight away, once, and nothing is held for later.
  await boardReady(page)
  await tile.click()
  await expect(dialog.getByRole('button', { name: 'Café menu. Edit title' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  expect(loads).toHaveLength(1)
})

test('if the board’s script never comes, a held click still opens the card the browser’s way', async ({ page, baseURL }) => {
  const map = await seedMap(baseURL!)
  await signIn(page.context(), map, baseURL!)
  await page.route(
    (url) => url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js'),
    (route) => route.abort(),
  )
  await page.goto(map.boardPath, { waitUntil: 'commit' })
  const tile = page.getByRole('link', { name: 'Café menu (feature)' })
  await tile.click()
  // Held first: the pointer says something is coming, and the board stays…
  await expect(page.locator('html')).toHaveClass(/card-opening/)
  await expect(page).toHaveURL(new RegExp(`${map.boardPath}$`))
  // …then, with no script to open it, the card's own page (server-rendered, its dialog open).
  await expect(page).toHaveURL(new RegExp(`${map.boardPath}/f/`), { timeout: 15_000 })
  await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
})
