import { expect, test, type Browser, type Page } from '@playwright/test'
import { buildSmallMap, card, cardsOf, e2eDatabase, keyboardDrag, newCard, settle } from './board-helpers'
import { expectNoSeriousAxeFindings, signUpThroughForm, uniqueUser } from './helpers'

/**
 * Two members on one map, each in their own browser: what one does shows at the other's within
 * a second, without a reload (CONTRACT §6).
 */
const SECOND = { timeout: 1_000 }
// Two people sign up and build a map before each test starts its real work.
test.describe.configure({ timeout: 90_000 })

async function secondMember(browser: Browser, workspaceName: string, projectUrl: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const user = await signUpThroughForm(page, { ...uniqueUser(), name: 'Bea Teammate' })
  const db = e2eDatabase()
  db.prepare(
    `insert into members (id, workspace_id, account_id, level, created_at)
     select ?, w.id, a.id, 'EDITOR', ? from workspaces w, accounts a where w.name = ? and a.email = ?`,
  ).run(crypto.randomUUID(), new Date().toISOString(), workspaceName, user.email)
  db.close()
  await page.goto(projectUrl)
  return { page, user, context }
}

const viewers = (page: Page) => page.getByRole('list', { name: 'People viewing this map' })

async function rename(page: Page, kind: 'Feature' | 'Goal', from: string, to: string) {
  await card(page, kind, from).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill(to)
  await dialog.getByLabel('Title').press('Enter')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
}

test('two members see each other, and each other’s rename, create, move and delete within a second', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const b = await secondMember(browser, user.workspaceName, projectUrl)

  // Presence: both names on both boards.
  for (const p of [page, b.page]) {
    await expect(viewers(p).getByRole('img', { name: new RegExp(`^${user.name}`) })).toBeVisible()
    await expect(viewers(p).getByRole('img', { name: /^Bea Teammate/ })).toBeVisible()
  }
  await expect(viewers(b.page).getByRole('img', { name: 'Bea Teammate (you)' })).toBeVisible()

  await rename(page, 'Feature', 'Filters', 'Price filter')
  await settle(page)
  await expect(card(b.page, 'Feature', 'Price filter')).toBeVisible(SECOND)

  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Gift cards')
  await settle(page)
  await expect(
    card(b.page.getByRole('region', { name: 'Release Later' }), 'Feature', 'Gift cards'),
  ).toBeVisible(SECOND)

  // A keyboard move: 'Card payment' goes left, from MVP / Pay into MVP / Search.
  const mvp = (p: Page) => cardsOf(p.getByRole('region', { name: 'Release MVP' }), 'Feature')
  await expect(mvp(b.page)).toHaveText(['Find by name', 'Price filter', 'Card payment'])
  await keyboardDrag(page, card(page, 'Feature', 'Card payment'), ['ArrowLeft'])
  await settle(page)
  const moved = await mvp(page).allTextContents()
  expect(moved).not.toEqual(['Find by name', 'Price filter', 'Card payment'])
  await expect(mvp(b.page)).toHaveText(moved, SECOND)

  await card(page, 'Release', 'Later').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Card menu' }).click()
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click()
  await settle(page)
  await expect(card(b.page, 'Release', 'Later')).toBeHidden(SECOND)
  await expect(card(b.page, 'Feature', 'Gift cards')).toBeHidden()

  // B leaves: A's board no longer lists B.
  await b.context.close()
  await expect(viewers(page).getByRole('img', { name: /^Bea Teammate/ })).toBeHidden({ timeout: 5_000 })
})

test('an open dialog follows someone else’s edits, keeps what its user types, and says when its card is deleted', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const b = await secondMember(browser, user.workspaceName, projectUrl)
  await card(b.page, 'Feature', 'Filters').click()
  const dialog = b.page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Filters' })).toBeVisible()

  await rename(page, 'Feature', 'Filters', 'Price filter')
  await expect(dialog.getByRole('heading', { name: 'Price filter' })).toBeVisible(SECOND)

  // B starts typing a title; A's next rename shows on the board but not in B's field.
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Filters by price')
  await rename(page, 'Feature', 'Price filter', 'Filter by price')
  await expect(card(b.page, 'Feature', 'Filter by price')).toBeVisible(SECOND)
  await expect(dialog.getByLabel('Title')).toHaveValue('Filters by price')
  await dialog.getByLabel('Title').press('Escape')

  await card(page, 'Feature', 'Filter by price').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Card menu' }).click()
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click()
  await expect(b.page.getByRole('dialog', { name: 'Card deleted' })).toBeVisible(SECOND)
  await expect(b.page.getByRole('dialog')).toContainText(
    `${user.name} deleted this card while you had it open.`,
  )
  await b.context.close()
})

test('a card deleted while its description is typed keeps the text, copyable, and comes back from the Trash with it', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const b = await secondMember(browser, user.workspaceName, projectUrl)
  await b.context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await card(b.page, 'Feature', 'Filters').click()
  const dialog = b.page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Edit description' }).click()
  const typed = 'Filter by **price** and by size'
  await dialog.getByLabel('Description').fill(typed)

  // The owner deletes the activity, and with it the feature B is typing in; the confirmation names what goes.
  await card(page, 'Activity', 'Search').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Card menu' }).click()
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Delete' }).click()
  const confirm = page.getByRole('dialog').getByRole('alert')
  await expect(confirm).toContainText('Delete this activity?')
  await expect(confirm).toContainText(
    'With it go its 2 features (‘Find by name’, ‘Filters’). Deleted cards stay in the Trash for 30 days.',
  )
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click()

  const deleted = b.page.getByRole('dialog', { name: 'Card deleted' })
  await expect(deleted).toContainText(`${user.name} deleted this card while you had it open.`)
  await expect(deleted.getByRole('textbox', { name: 'Your unsaved description' })).toHaveValue(typed)
  // The field typed in is gone: the focus is on the text, selected.
  await expect(deleted.getByRole('textbox', { name: 'Your unsaved description' })).toBeFocused()
  await deleted.getByRole('button', { name: 'Copy your unsaved description' }).click()
  await expect.poll(() => b.page.evaluate(() => navigator.clipboard.readText())).toBe(typed)
  await expect(deleted).toContainText('It went with the card above it, which comes back with it.')
  await expectNoSeriousAxeFindings(b.page, '.modal')
  await deleted.getByRole('button', { name: 'Restore the card from Trash' }).click()

  // The activity is back with its features, and the dialog shows the card with the text in its editor, unsaved.
  const restored = b.page.getByRole('dialog', { name: 'Feature card' })
  await expect(restored.getByLabel('Description')).toHaveValue(typed)
  await expect(card(page, 'Activity', 'Search')).toBeVisible()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await restored.getByRole('button', { name: 'Save' }).click()
  await expect(restored.locator('.markdown strong')).toHaveText('price')
  await settle(b.page)
  await page.reload()
  await card(page, 'Feature', 'Filters').click()
  await expect(page.getByRole('dialog').locator('.markdown strong')).toHaveText('price')
  await b.context.close()
})

test('after a disconnect the board shows Reconnecting… and catches up by replay', async ({
  page,
  browser,
  baseURL,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const b = await secondMember(browser, user.workspaceName, projectUrl)
  await expect(viewers(b.page).getByRole('img', { name: 'Bea Teammate (you)' })).toBeVisible()

  // Cut B's stream from the server side: a session keeps at most 20 streams, so 20 more
  // opened with B's cookie end the board's; and B's browser cannot get through again yet.
  await b.page.route('**/events?*', (route) => route.abort())
  const cookie = (await b.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
  const projectId = projectUrl.split('/').pop()
  const others = new AbortController()
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${baseURL}/v1/projects/${projectId}/events`, {
      headers: { Cookie: cookie },
      signal: others.signal,
    })
    expect(res.status).toBe(200)
  }
  await expect(b.page.getByRole('status').getByText('Reconnecting…')).toBeVisible({ timeout: 10_000 })

  await rename(page, 'Goal', 'Shop', 'Storefront')
  await settle(page)
  await expect(card(b.page, 'Goal', 'Shop')).toBeVisible()
  await b.page.unrouteAll()
  await expect(card(b.page, 'Goal', 'Storefront')).toBeVisible({ timeout: 10_000 })
  await expect(b.page.getByText('Reconnecting…')).toBeHidden()
  others.abort()
  await b.context.close()
})

test('the public link follows the map live, with no presence of its own; demo mode stays local', async ({
  page,
  browser,
}) => {
  const { user } = await buildSmallMap(page)
  const shareUrl = (await page.getByRole('link', { name: 'Share link' }).getAttribute('href'))!
  const visitor = await browser.newContext()
  const guest = await visitor.newPage()
  await guest.goto(new URL(shareUrl).pathname)
  await expect(viewers(guest).getByRole('img', { name: user.name, exact: true })).toBeVisible()
  await rename(page, 'Feature', 'Filters', 'Price filter')
  await expect(card(guest, 'Feature', 'Price filter')).toBeVisible(SECOND)
  await expect(viewers(page).getByRole('img')).toHaveCount(1)

  const demo = await visitor.newPage()
  const streams: string[] = []
  demo.on('request', (r) => r.url().includes('/events') && streams.push(r.url()))
  await demo.goto(`${new URL(shareUrl).pathname}?demo=1`)
  await expect(demo.getByText('DEMO MODE')).toBeVisible()
  await rename(page, 'Feature', 'Price filter', 'Filter by price')
  await expect(card(guest, 'Feature', 'Filter by price')).toBeVisible(SECOND)
  await expect(card(demo, 'Feature', 'Price filter')).toBeVisible()
  expect(streams).toEqual([])
  await visitor.close()
})

test('a member demoted to viewer, or whose plan ends, goes VIEW ONLY within 5 s without a reload, and back', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const b = await secondMember(browser, user.workspaceName, projectUrl)
  const within5s = { timeout: 5_000 }
  const addFeature = b.page.getByRole('button', { name: 'Add feature to Later / Pay' })
  const viewOnly = b.page.getByText('VIEW ONLY', { exact: true })
  await expect(addFeature).toBeVisible()
  await expect(viewOnly).toBeHidden()
  await expect(viewers(b.page).getByRole('img', { name: 'Bea Teammate (you)' })).toBeVisible()

  const workspaceId = (await (await page.request.get('/v1/account/app')).json()).workspaces.find(
    (w: { name: string }) => w.name === user.workspaceName,
  ).id
  const members = (await (
    await page.request.get('/v1/members', { headers: { Workspace: workspaceId } })
  ).json()) as {
    id: string
    name: string
  }[]
  const bea = members.find((m) => m.name === 'Bea Teammate')!
  const setLevel = async (level: string) => {
    const res = await page.request.post(`/v1/members/${bea.id}/level`, {
      data: { level },
      headers: { Workspace: workspaceId, Origin: new URL(page.url()).origin },
    })
    expect(res.status()).toBe(200)
  }
  // A mark on the page's window: a reload would lose it.
  await b.page.evaluate(() => Object.assign(window, { sameDocument: true }))

  // Bea is typing a new title when she loses the right to edit: the board says it was not saved.
  await card(b.page, 'Feature', 'Filters').click()
  const dialog = b.page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Half-typed title')
  await setLevel('VIEWER')
  await expect(viewOnly).toBeVisible(within5s)
  await expect(addFeature).toBeHidden()
  await expect(dialog.getByLabel('Title')).toBeHidden()
  await expect(b.page.locator('.messages')).toContainText(
    'You can only view this map now, so your change was not saved.',
  )
  await expect(b.page.locator('.messages')).toContainText('You had typed: “Half-typed title”')
  await b.page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await setLevel('EDITOR')
  await expect(viewOnly).toBeHidden(within5s)
  await expect(addFeature).toBeVisible()

  const db = e2eDatabase()
  const plan = (expiration: string | null) =>
    db
      .prepare('update subscriptions set expiration_date = ? where workspace_id = ?')
      .run(expiration, workspaceId)
  plan('2000-01-01T00:00:00.000Z')
  await expect(viewOnly).toBeVisible(within5s)
  await expect(addFeature).toBeHidden()
  plan(null)
  db.close()
  await expect(viewOnly).toBeHidden(within5s)
  await expect(addFeature).toBeVisible()
  expect(await b.page.evaluate(() => 'sameDocument' in window)).toBe(true) // no reload at any point
  await b.context.close()
})

test('an edit on a live board fetches no map again: the card keeps its edit throughout, and Undo names it', async ({
  page,
}) => {
  await buildSmallMap(page)
  await expect(viewers(page).getByRole('img', { name: /\(you\)$/ })).toBeVisible()
  const mapFetches: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('.data')) mapFetches.push(request.url())
  })
  // The old title must never come back while the edit is on its way (a reload would bring it back
  // only if the board dropped the edit before the stream brought it).
  await page.evaluate(() => {
    const seen = window as unknown as { __oldTitleSeen: number }
    seen.__oldTitleSeen = 0
    let renamed = false
    new MutationObserver(() => {
      const titles = [...document.querySelectorAll('.feature-card .card-title')].map((el) => el.textContent)
      if (titles.includes('Price filter')) renamed = true
      else if (renamed && titles.includes('Filters')) seen.__oldTitleSeen += 1
    }).observe(document.body, { subtree: true, childList: true, characterData: true })
  })
  await rename(page, 'Feature', 'Filters', 'Price filter')
  await settle(page)
  await expect(card(page, 'Feature', 'Price filter')).toBeVisible()
  const history = page.getByRole('group', { name: 'History' })
  await expect(history.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    /^Undo: Renamed feature/,
  )
  await keyboardDrag(page, card(page, 'Feature', 'Card payment'), ['ArrowLeft'])
  await settle(page)
  expect(mapFetches).toEqual([])
  expect(await page.evaluate(() => (window as unknown as { __oldTitleSeen: number }).__oldTitleSeen)).toBe(0)

  // Undo still reloads the data; the server has every edit. (A second Ctrl+Z while the first is
  // on its way is ignored: wait until the first has undone the move.)
  await page.locator('body').press('Control+z')
  await expect(history.getByRole('button', { name: 'Redo' })).not.toHaveAttribute('title', 'Nothing to redo')
  await settle(page)
  await expect(history.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    /^Undo: Renamed feature/,
  )
  await page.locator('body').press('Control+z')
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await settle(page)
  expect(mapFetches.length).toBeGreaterThan(0)
  await page.reload()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
})
