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
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame())
      loads.push(request.url())
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

test('a card clicked before the board has its script opens in place once it has', async ({
  page,
  baseURL,
}) => {
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

test('Enter on a card before the board has its script opens it too; later clicks are the board’s own', async ({
  page,
  baseURL,
}) => {
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

test('if the board’s script never comes, a held click still opens the card the browser’s way', async ({
  page,
  baseURL,
}) => {
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

// The board's other controls work only with its script: a click before it has come is held the
// same way (the control says it is busy) and acts once it has, without another click.
for (const control of ['Activity', 'Trash', 'Personas'] as const) {
  test(`${control} clicked before the board has its script opens its panel once it has`, async ({
    page,
    baseURL,
  }) => {
    const { release } = await openBoardBeforeItsScript(page, baseURL!)
    const button = page.getByRole('button', { name: control, exact: true })
    await button.click()
    await expect(button).toHaveAttribute('aria-busy', 'true')
    await expect(button).toHaveCSS('cursor', 'progress')
    release()
    const panel = page.getByRole('complementary', { name: control })
    await expect(panel).toBeVisible()
    await expect(button).not.toHaveAttribute('aria-busy')
    // Only once: the panel stays open, and closes at the first click on its close button.
    await boardReady(page)
    await panel.getByRole('button', { name: `Close ${control.toLowerCase()}` }).click()
    await expect(panel).toBeHidden()
  })
}

test('the Project menu clicked early opens once the script has come; its items then work', async ({
  page,
  baseURL,
}) => {
  const { release } = await openBoardBeforeItsScript(page, baseURL!)
  await page.getByRole('button', { name: 'Project menu' }).click()
  release()
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  await menu.getByRole('menuitem', { name: 'Tags' }).click()
  await expect(page.getByRole('dialog', { name: 'Tags' })).toBeVisible()
})

test('Undo clicked before the board has its script undoes the last edit once it has', async ({
  page,
  baseURL,
}) => {
  const map = await seedMap(baseURL!)
  await signIn(page.context(), map, baseURL!)
  const renamed = await map.owner.client.post(`/v1/features/${map.ids.get('Café menu')}/rename`, {
    title: 'Drinks',
  })
  expect(renamed.status).toBe(200)
  const release = await holdScripts(page)
  await page.goto(map.boardPath, { waitUntil: 'commit' })
  await expect(page.getByRole('link', { name: 'Drinks (feature)' })).toBeVisible()
  await page.getByRole('group', { name: 'History' }).getByRole('button', { name: 'Undo' }).click()
  release()
  await expect(page.getByRole('link', { name: 'Café menu (feature)' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Drinks (feature)' })).toHaveCount(0)
})

test('Show closed ticked early stays unticked until it works, then shows the closed cards', async ({
  page,
  baseURL,
}) => {
  const { release } = await openBoardBeforeItsScript(page, baseURL!)
  const showClosed = page.getByLabel('Show closed')
  await showClosed.click()
  // Not ticked while it would not do anything: the box never says what the board does not show.
  await expect(showClosed).not.toBeChecked()
  await expect(showClosed).toHaveAttribute('aria-busy', 'true')
  await expect(page.locator('label').filter({ has: showClosed })).toHaveCSS('cursor', 'progress')
  release()
  await expect(showClosed).toBeChecked()
  await expect(page.getByRole('link', { name: 'Refunds (feature, closed)' })).toBeVisible()
})

test('Add goal clicked early opens the new card dialog once the script has come', async ({
  page,
  baseURL,
}) => {
  const { release } = await openBoardBeforeItsScript(page, baseURL!)
  const addGoal = page.getByRole('button', { name: 'Add goal' })
  await addGoal.click()
  await expect(addGoal).toHaveCSS('cursor', 'progress')
  release()
  const dialog = page.getByRole('dialog', { name: 'New goal' })
  await expect(dialog.getByLabel('Title')).toBeVisible()
})

test('of several early clicks the last one acts: a card after Activity opens the card only', async ({
  page,
  baseURL,
}) => {
  const { release } = await openBoardBeforeItsScript(page, baseURL!)
  const activity = page.getByRole('button', { name: 'Activity', exact: true })
  const personas = page.getByRole('button', { name: 'Personas', exact: true })
  await activity.click()
  await expect(activity).toHaveAttribute('aria-busy', 'true')
  await personas.click()
  await expect(personas).toHaveAttribute('aria-busy', 'true')
  await expect(activity).not.toHaveAttribute('aria-busy')
  await page.getByRole('link', { name: 'Café menu (feature)' }).click()
  await expect(personas).not.toHaveAttribute('aria-busy')
  release()
  await expect(page.getByRole('dialog', { name: 'Feature card' })).toBeVisible()
  await boardReady(page)
  for (const panel of ['Activity', 'Personas'])
    await expect(page.getByRole('complementary', { name: panel })).toHaveCount(0)
})

test('a card dialog opened by its link: Close clicked before the script has come closes it once it has', async ({
  page,
  baseURL,
}) => {
  const map = await seedMap(baseURL!)
  await signIn(page.context(), map, baseURL!)
  const release = await holdScripts(page)
  await page.goto(`${map.boardPath}/f/${map.ids.get('Café menu')}`, { waitUntil: 'commit' })
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  release()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(new RegExp(`${map.boardPath}$`))
})

test('a search typed before the board has its script filters the cards once it has', async ({
  page,
  baseURL,
}) => {
  const { release } = await openBoardBeforeItsScript(page, baseURL!)
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('pay')
  release()
  await expect(page.getByText('1 of 4 open features')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Café menu (feature)' })).toBeHidden()
  await expect(page.getByRole('link', { name: 'Pay by card (feature)' })).toBeVisible()
})
