import { expect, test, type Page } from '@playwright/test'
import { buildSmallMap, card, createProject, e2eDatabase, newCard, settle } from './board-helpers'
import { signUpThroughForm } from './helpers'
import { openSeededBoard } from './map-fixture'

/** Opens a feature, types its size into the dialog's 'Size' field, leaves the field (which submits it) and closes. */
async function setSize(page: Page, feature: string, size: number) {
  await card(page, 'Feature', feature).click()
  const field = page.getByRole('dialog').getByLabel('Size')
  await field.fill(String(size))
  await field.press('Tab')
  await expect(card(page, 'Feature', feature).getByTitle('Size')).toHaveAttribute('data-text', String(size))
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
}

test('sizes add up: goal and activity show their features’ sum, a release its sum and count', async ({
  page,
}) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Wallet')
  await setSize(page, 'Find by name', 2)
  await setSize(page, 'Filters', 3)
  await setSize(page, 'Card payment', 7)
  await setSize(page, 'Wallet', 4)

  const expectSums = async () => {
    await expect(card(page, 'Activity', 'Search').getByTitle('Size')).toHaveAttribute('data-text', '5')
    await expect(card(page, 'Activity', 'Pay').getByTitle('Size')).toHaveAttribute('data-text', '11')
    await expect(card(page, 'Goal', 'Shop').getByTitle('Size')).toHaveAttribute('data-text', '16')
    const mvp = page.getByRole('region', { name: 'Release MVP' }).locator('.release-stats')
    await expect(mvp).toHaveText('Size 12 · 3 features')
    const later = page.getByRole('region', { name: 'Release Later' }).locator('.release-stats')
    await expect(later).toHaveText('Size 4 · 1 feature')
  }
  await expectSums()
  await settle(page)
  await page.reload()
  await expectSums()
})

test('a card dialog keeps Tab inside and gives focus back to its card; Escape closes the persona panel', async ({
  page,
}) => {
  await buildSmallMap(page)
  const tile = card(page, 'Feature', 'Filters')
  await tile.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Filters' })).toBeVisible()
  await expect(dialog.locator(':focus')).toHaveCount(1)

  // More presses than the dialog has controls, so Tab passes its last one: focus never leaves it.
  const inDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)
  const controls = await dialog.locator('button, input, textarea, summary, a[href]').count()
  for (let i = 1; i <= controls; i++) {
    await page.keyboard.press('Tab')
    expect(await inDialog(), `Tab #${i} stays in the dialog`).toBe(true)
  }
  // It wraps both ways: Tab from the last control reaches the first, Shift+Tab from the first the last.
  const last = dialog.getByRole('button', { name: 'Mark card as Closed' })
  await last.focus()
  await page.keyboard.press('Tab')
  await expect(dialog.locator(':focus')).toHaveText('Filters') // the title, first
  await page.keyboard.press('Shift+Tab')
  await expect(last).toBeFocused()

  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(tile).toBeFocused()

  // The 'New feature' modal too: its title field takes focus, and the '+' gets it back.
  const add = page.getByRole('button', { name: 'Add feature to Later / Pay' })
  await add.focus()
  await page.keyboard.press('Enter')
  await expect(
    page.getByRole('dialog', { name: 'New feature in Later › Pay' }).getByLabel('Title'),
  ).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(add).toBeFocused()

  const personas = page.getByRole('button', { name: 'Personas', exact: true })
  await personas.click()
  const panel = page.getByRole('complementary', { name: 'Personas' })
  await expect(panel).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await expect(personas).toBeFocused()
})

test('Copy puts the share link and a card’s permalink on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await buildSmallMap(page)
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText())

  const shareUrl = await page.getByRole('link', { name: 'Share link' }).getAttribute('href')
  await page.getByRole('button', { name: 'Copy share link' }).click()
  await expect(page.getByRole('button', { name: 'Copy share link' })).toHaveText('Copied')
  expect(await clipboard()).toBe(shareUrl)

  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog')
  const permalink = await dialog.getByLabel('Permalink', { exact: true }).inputValue()
  expect(new URL(permalink).pathname).toBe(new URL(page.url()).pathname)
  await dialog.getByRole('button', { name: 'Copy permalink' }).click()
  await expect(dialog.getByRole('button', { name: 'Copy permalink' })).toHaveText('Copied')
  expect(await clipboard()).toBe(permalink)
})

test('personas: add an existing one to a goal, remove it, delete it', async ({ page }) => {
  await buildSmallMap(page)
  const panel = page.getByRole('complementary', { name: 'Personas' })
  const chip = page.getByRole('button', { name: 'Persona Pat Planner' })
  await page.getByRole('button', { name: 'Personas', exact: true }).click()
  await expect(panel.getByText('No personas yet.')).toBeVisible()
  await panel.getByRole('button', { name: 'New persona' }).click()
  await panel.getByLabel('Name').fill('Pat Planner')
  await panel.getByRole('button', { name: 'Create' }).click()
  await expect(panel.getByRole('heading', { name: 'Pat Planner' })).toBeVisible()
  await expect(panel.getByText('Not on any goal.')).toBeVisible()
  await expect(chip).toHaveCount(0)

  await panel.getByLabel('Goal').selectOption({ label: 'Shop' })
  await panel.getByRole('button', { name: 'Add to goal' }).click()
  await expect(chip).toBeVisible()
  await expect(panel.getByText('Shop', { exact: true })).toBeVisible()
  await settle(page)
  await page.reload()
  await chip.click()
  await expect(panel.getByRole('heading', { name: 'Pat Planner' })).toBeVisible()
  await panel.getByRole('button', { name: 'Remove Pat Planner from goal Shop' }).click()
  await expect(chip).toBeHidden()
  await expect(panel.getByText('Not on any goal.')).toBeVisible()

  // Deleting a persona that sits on a goal takes it off the goal too.
  await panel.getByLabel('Goal').selectOption({ label: 'Shop' })
  await panel.getByRole('button', { name: 'Add to goal' }).click()
  await expect(chip).toBeVisible()
  await panel.getByRole('button', { name: 'Delete' }).click()
  await expect(panel.getByText('No personas yet.')).toBeVisible()
  await expect(chip).toBeHidden()
  await settle(page)
  await page.reload()
  await expect(card(page, 'Goal', 'Shop')).toBeVisible()
  await expect(chip).toHaveCount(0)
  await page.getByRole('button', { name: 'Personas', exact: true }).click()
  await expect(panel.getByText('No personas yet.')).toBeVisible()
})

test('a goal’s + offers the project’s personas not on it yet, then New persona', async ({
  page,
  baseURL,
}) => {
  // Pat is on the goal Help.
  await openSeededBoard(page, baseURL!)
  const panel = page.getByRole('complementary', { name: 'Personas' })
  const goalHead = (goal: string) => page.locator('.goal-head', { has: card(page, 'Goal', goal) })
  await expect(goalHead('Shop').getByRole('button', { name: 'Persona Pat' })).toHaveCount(0)

  await page.getByRole('button', { name: 'Add persona to goal Shop' }).click()
  await expect(panel.getByText('For goal: Shop')).toBeVisible()
  const pat = panel.getByRole('button', { name: /^Pat/ })
  const create = panel.getByRole('button', { name: 'New persona' })
  await expect(pat).toBeVisible()
  await expect(create).toBeVisible()
  expect((await pat.boundingBox())!.y).toBeLessThan((await create.boundingBox())!.y)
  await pat.click()
  await expect(goalHead('Shop').getByRole('button', { name: 'Persona Pat' })).toBeVisible()
  await expect(panel.getByRole('heading', { name: 'Pat' })).toBeVisible()
  await expect(panel.getByText('Shop', { exact: true })).toBeVisible()
  await expect(panel.getByText('Help', { exact: true })).toBeVisible()
  await settle(page)
  await page.reload()
  await expect(goalHead('Shop').getByRole('button', { name: 'Persona Pat' })).toBeVisible()

  // Pat is on both goals now: nothing to offer, the + goes to the new persona form.
  await page.getByRole('button', { name: 'Add persona to goal Help' }).click()
  await expect(panel.getByRole('heading', { name: 'New persona' })).toBeVisible()
  await expect(panel.getByText('For goal: Help')).toBeVisible()
  await panel.getByLabel('Name').fill('Sam')
  await panel.getByRole('button', { name: 'Create' }).click()
  await expect(goalHead('Help').getByRole('button', { name: 'Persona Sam' })).toBeVisible()

  // Sam is offered on Shop; New persona from there still makes one for that goal.
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Add persona to goal Shop' }).click()
  await expect(panel.getByRole('button', { name: /^Sam/ })).toBeVisible()
  await expect(panel.getByRole('button', { name: /^Pat/ })).toHaveCount(0)
  await panel.getByRole('button', { name: 'New persona' }).click()
  await expect(panel.getByRole('heading', { name: 'New persona' })).toBeVisible()
  await panel.getByLabel('Name').fill('Kim')
  await panel.getByRole('button', { name: 'Create' }).click()
  await expect(goalHead('Shop').getByRole('button', { name: 'Persona Kim' })).toBeVisible()
})

test('the share link is offered only while the workspace allows external sharing', async ({
  page,
  browser,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await createProject(page)
  const shareLink = page.getByRole('link', { name: 'Share link' })
  const shareUrl = await shareLink.getAttribute('href')
  const db = e2eDatabase()
  const { id } = db.prepare('select id from workspaces where name = ?').get(user.workspaceName) as {
    id: string
  }
  db.close()
  const setSharing = async (value: boolean) => {
    const response = await page.request.post('/v1/settings/allow-external-sharing', {
      data: { value },
      headers: { Workspace: id },
    })
    expect(response.status()).toBe(200)
  }
  const visitor = await browser.newContext()
  const guest = await visitor.newPage()

  await setSharing(false)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Online shop', level: 1 })).toBeVisible()
  await expect(shareLink).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Copy share link' })).toHaveCount(0)
  await guest.goto(new URL(shareUrl!).pathname)
  await expect(guest.getByText('Project not found.')).toBeVisible()

  await setSharing(true)
  await page.reload()
  await expect(shareLink).toHaveAttribute('href', shareUrl!)
  await guest.reload()
  await expect(guest.getByRole('heading', { name: 'Online shop', level: 1 })).toBeVisible()
  await visitor.close()
})

test('Loading data... shows while a project’s data is on its way', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await createProject(page)
  const projectPath = new URL(page.url()).pathname
  await page.goto(`/${user.workspaceName}`)

  // Hold the project's data request until 'Loading data...' has been seen.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => url.pathname === `${projectPath}.data`,
    async (route) => {
      await held
      await route.fallback()
    },
  )
  await page.getByRole('link', { name: 'Online shop' }).click()
  await expect(page.getByText('Loading data...')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Online shop', level: 1 })).toHaveCount(0)
  release()
  await expect(page.getByRole('heading', { name: 'Online shop', level: 1 })).toBeVisible()
  await expect(page.getByText('Loading data...')).toBeHidden()
  await expect(page.getByText('This board is empty, please start by adding a user goal')).toBeVisible()
})

test('a card created over a slow connection shows once, even when the live stream brings its server copy first', async ({
  page,
}) => {
  const { user } = await buildSmallMap(page)
  await settle(page)
  // The server creates the feature at once, but its answer reaches the page only when released.
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  let created = () => {}
  const onServer = new Promise<void>((resolve) => (created = resolve))
  await page.route(
    (url) => url.pathname.endsWith('/commands'),
    async (route) => {
      if ((route.request().postDataJSON() as { type?: string }).type !== 'feature.create')
        return route.fallback()
      const response = await route.fetch()
      created()
      await held
      await route.fulfill({ response })
    },
  )
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Wallet')
  await onServer
  // A teammate renames the new card meanwhile: the live stream brings the server's copy, renamed.
  const db = e2eDatabase()
  const { id: workspaceId } = db
    .prepare('select id from workspaces where name = ?')
    .get(user.workspaceName) as { id: string }
  const { id: featureId } = db
    .prepare("select id from features where title = 'Wallet' and workspace_id = ?")
    .get(workspaceId) as { id: string }
  db.close()
  const renamed = await page.request.post(`/v1/features/${featureId}/rename`, {
    data: { title: 'Wallet pay' },
    headers: { Workspace: workspaceId },
  })
  expect(renamed.status()).toBe(200)
  await expect(card(page, 'Feature', 'Wallet pay')).toHaveCount(1)
  await expect(card(page, 'Feature', 'Wallet')).toHaveCount(0)
  release()
  await settle(page)
  await expect(card(page, 'Feature', 'Wallet pay')).toHaveCount(1)
  await expect(page.getByRole('region', { name: 'Release Later' }).locator('.release-stats')).toHaveText(
    /· 1 feature$/,
  )
})
