import { expect, test, type Page } from '@playwright/test'
import { buildSmallMap, card, cardsOf, e2eDatabase, keyboardDrag, newCard, settle } from './board-helpers'
import { signUpThroughForm, uniqueUser } from './helpers'

/**
 * A team's board when the network goes (issue 20, defect 1): edits show at once and wait, a
 * notice says so, they are saved in order when the network is back, and the live stream catches
 * up. Never an error page.
 */
test.describe.configure({ timeout: 90_000 })

/** Waits until the board has loaded the code of its dialogs (it does so once idle), as a board open for a moment has. */
async function boardPartsLoaded(page: Page) {
  await page.waitForFunction(() => {
    const loaded = performance.getEntriesByType('resource').map((e) => e.name)
    return ['/new-card-modal-', '/shortcuts-dialog-', '.f._featureId-', '.m._milestoneId-'].every((part) =>
      loaded.some((name) => name.includes(part)),
    )
  })
}

const notice = (page: Page) => page.getByRole('status').filter({ hasText: 'You are offline.' })
const errorPage = (page: Page) => page.getByRole('heading', { name: /Something went wrong/ })

async function renameIn(page: Page, title: string) {
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByLabel('Title').press('Enter')
  await expect(dialog.getByRole('heading', { name: title })).toBeVisible()
}

test('edits made offline show at once, wait under a notice, and are saved in order when the network is back', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  await boardPartsLoaded(page)
  // A teammate on the same board, online all along.
  const bea = await browser.newContext()
  const beaPage = await bea.newPage()
  const beaUser = await signUpThroughForm(beaPage, { ...uniqueUser(), name: 'Bea Teammate' })
  const db = e2eDatabase()
  db.prepare(
    `insert into members (id, workspace_id, account_id, level, created_at)
     select ?, w.id, a.id, 'EDITOR', ? from workspaces w, accounts a where w.name = ? and a.email = ?`,
  ).run(crypto.randomUUID(), new Date().toISOString(), user.workspaceName, beaUser.email)
  db.close()
  await beaPage.goto(projectUrl)
  await expect(card(beaPage, 'Feature', 'Filters')).toBeVisible()

  await page.context().setOffline(true)
  await expect(notice(page)).toContainText('Changes you make will be saved when the connection is back.')

  // In the card dialog: two renames (the later must win), a colour, a description, a size, a comment.
  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog')
  await renameIn(page, 'Price filter')
  await renameIn(page, 'Price filters')
  await dialog.getByRole('radio', { name: 'Red' }).check()
  await dialog.getByRole('button', { name: 'Edit description' }).click()
  await dialog.getByLabel('Description').fill('By **price** range')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.locator('.markdown strong')).toHaveText('price')
  await dialog.getByLabel('Size').fill('5')
  await dialog.getByLabel('Size').press('Tab')
  await dialog.getByLabel('Write a comment').fill('Can we ship this offline?')
  await dialog.getByRole('button', { name: 'Post comment' }).click()
  await expect(dialog.getByRole('listitem', { name: /^Comment by/ })).toContainText(
    'Can we ship this offline?',
  )
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // A new card through a cell's '+', and a move by keyboard.
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Gift cards')
  await expect(
    card(page.getByRole('region', { name: 'Release Later' }), 'Feature', 'Gift cards'),
  ).toBeVisible()
  await keyboardDrag(page, card(page, 'Feature', 'Card payment'), ['ArrowLeft'])

  // Meanwhile Bea renames a release: A's board gets it once back online.
  await card(beaPage, 'Release', 'Later').click()
  await renameIn(beaPage, 'Next')
  await beaPage.keyboard.press('Escape')

  const tile = card(page, 'Feature', 'Price filters')
  await expect(tile).toBeVisible()
  await expect(tile.getByTitle('Size')).toHaveAttribute('data-text', '5')
  await expect(notice(page)).toContainText(
    /\d+ changes are waiting and will be saved when the connection is back\./,
  )
  await expect(errorPage(page)).toHaveCount(0)
  // Leaving the page now would lose the waiting changes: the browser asks first, and staying keeps them.
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (dialog) => {
      resolve(dialog.type())
      void dialog.dismiss()
    }),
  )
  await page.evaluate(() => window.location.reload())
  expect(await asked).toBe('beforeunload')
  await expect(tile.getByTitle('Size')).toHaveAttribute('data-text', '5')

  await page.context().setOffline(false)
  await expect(notice(page)).toHaveCount(0)
  await expect(card(page, 'Release', 'Next')).toBeVisible()
  await settle(page)
  await expect(page.getByRole('status').filter({ hasText: 'Something went wrong' })).toHaveCount(0)

  // Everything reached the server, in order; Bea sees it live too.
  const mvp = (p: Page) => cardsOf(p.getByRole('region', { name: 'Release MVP' }), 'Feature')
  const moved = await mvp(page).allTextContents()
  await expect(card(beaPage, 'Feature', 'Price filters')).toBeVisible()
  await expect(card(beaPage, 'Feature', 'Gift cards')).toBeVisible()
  await expect(mvp(beaPage)).toHaveText(moved)
  await page.reload()
  await expect(card(page, 'Feature', 'Price filters').getByTitle('Size')).toHaveAttribute('data-text', '5')
  await expect(mvp(page)).toHaveText(moved)
  await card(page, 'Feature', 'Price filters').click()
  await expect(dialog.locator('.markdown strong')).toHaveText('price')
  await expect(dialog.getByRole('radio', { name: 'Red' })).toBeChecked()
  await expect(dialog.getByRole('listitem', { name: /^Comment by/ })).toContainText(
    'Can we ship this offline?',
  )
  await bea.close()
})

test('a write the server refuses once the network is back is rolled back with its reason; undo offline says it needs the connection', async ({
  page,
}) => {
  const { user } = await buildSmallMap(page)
  await boardPartsLoaded(page)
  await page.context().setOffline(true)
  await expect(notice(page)).toBeVisible()

  await page.keyboard.press('Control+z')
  await expect(
    page.getByRole('status').getByText('Cannot undo while offline.', { exact: true }),
  ).toBeVisible()

  await card(page, 'Feature', 'Filters').click()
  await renameIn(page, 'Price filter')
  await page.keyboard.press('Escape')
  await expect(card(page, 'Feature', 'Price filter')).toBeVisible()

  // Behind the page, the member becomes a viewer: the server refuses the waiting rename.
  const db = e2eDatabase()
  db.prepare(
    "update members set level = 'VIEWER' where account_id = (select id from accounts where email = ?) and workspace_id = (select id from workspaces where name = ?)",
  ).run(user.email, user.workspaceName)
  db.close()
  await page.context().setOffline(false)
  const alert = page.getByRole('status').locator('.message.fail').filter({ hasText: 'rename' })
  await expect(alert).toContainText('Something went wrong when trying to rename.')
  await expect(alert.locator('.message-detail')).not.toBeEmpty()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await expect(card(page, 'Feature', 'Price filter')).toHaveCount(0)
  await expect(errorPage(page)).toHaveCount(0)
})

test('Ctrl+Z on a new, empty board does nothing to the project', async ({ page }) => {
  const { user } = await buildSmallMap(page)
  await page.goto(`/${user.workspaceName}`)
  await page.getByRole('link', { name: 'New project' }).click()
  const create = page.getByRole('dialog', { name: 'Create project' })
  await create.getByLabel('Title').fill('Brand new')
  await create.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: 'Brand new', level: 1 })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('aria-disabled', 'true')
  await page.keyboard.press('Control+z')
  await settle(page)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Brand new', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Project not found' })).toHaveCount(0)
})
