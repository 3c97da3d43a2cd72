import { expect, test } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import fs from 'node:fs'
import {
  buildSmallMap,
  card,
  cardsOf,
  e2eDatabase,
  keyboardDrag,
  mouseDrag,
  newCard,
  settle,
} from './board-helpers'

test('drag a feature to another cell and a goal to another place; both persist', async ({ page }) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add goal' }).click()
  await newCard(page, 'Help')
  await settle(page)

  // "Filters" (MVP / Search, second) goes down into "Later / Search", with the mouse.
  await mouseDrag(
    page,
    card(page, 'Feature', 'Filters'),
    page.getByRole('button', { name: 'Add feature to Later / Search' }),
    'Later / Search',
  )
  const later = page.getByRole('region', { name: 'Release Later' })
  await expect(later.getByRole('link', { name: 'Filters (feature)' })).toBeVisible()
  // "Card payment" (MVP / Pay) goes left into "MVP / Search"; the keyboard keeps its place (first).
  await keyboardDrag(page, card(page, 'Feature', 'Card payment'), ['ArrowLeft'])
  const mvpNow = page.getByRole('region', { name: 'Release MVP' })
  await expect(cardsOf(mvpNow, 'Feature')).toHaveText(['Card payment', 'Find by name'])
  // Goal "Help" moves before "Shop".
  await keyboardDrag(page, card(page, 'Goal', 'Help'), ['ArrowLeft'])
  await expect(cardsOf(page, 'Goal')).toHaveText([/Help/, /Shop/])
  await settle(page)

  await page.reload()
  await expect(cardsOf(page, 'Goal')).toHaveText([/Help/, /Shop/])
  await expect(
    page.getByRole('region', { name: 'Release Later' }).getByRole('link', { name: 'Filters (feature)' }),
  ).toBeVisible()
  const mvp = page.getByRole('region', { name: 'Release MVP' })
  await expect(cardsOf(mvp, 'Feature')).toHaveText(['Card payment', 'Find by name'])
})

test('Export CSV downloads storymap.csv matching the board', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Feature', 'Filters').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Edit description' }).click()
  await page.getByRole('dialog').getByLabel('Description').fill('Say "cheap", then filter')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await page.getByRole('dialog').getByLabel('Size').fill('3')
  await page.getByRole('dialog').getByLabel('Size').blur()
  await page.keyboard.press('Escape')
  await settle(page)

  await page.getByRole('button', { name: 'Project menu' }).click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export CSV' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('storymap.csv')
  const text = fs.readFileSync(await download.path(), 'utf8')
  expect(text.split('\r\n')[0]).toBe(
    '"release_title","goal_title","activity_title","feature_title","feature_description","feature_status","feature_color","feature_annotations","feature_size"',
  )
  expect(text).toContain('"Say ""cheap"", then filter"')
  const rows = parse(text, { columns: true }) as Record<string, string>[]
  expect(
    rows.map((r) => [r.release_title, r.goal_title, r.activity_title, r.feature_title, r.feature_size]),
  ).toEqual([
    ['MVP', 'Shop', 'Search', 'Find by name', '0'],
    ['MVP', 'Shop', 'Search', 'Filters', '3'],
    ['MVP', 'Shop', 'Pay', 'Card payment', '0'],
  ])
})

test('the share link shows the map read-only to a signed-out visitor', async ({ page, browser }) => {
  await buildSmallMap(page)
  const shareUrl = await page.getByRole('link', { name: 'Share link' }).getAttribute('href')
  expect(shareUrl).toMatch(/\/link\/[A-Za-z0-9_-]{20,}$/)

  const visitor = await browser.newContext()
  const guest = await visitor.newPage()
  await guest.goto(new URL(shareUrl!).pathname)
  await expect(guest.getByText('VIEW ONLY')).toBeVisible()
  await expect(card(guest, 'Feature', 'Card payment')).toBeVisible()
  await expect(guest.getByRole('button', { name: /Add/ })).toHaveCount(0)
  await expect(guest.locator('[data-rfd-drag-handle-draggable-id]')).toHaveCount(0)
  await card(guest, 'Feature', 'Card payment').click()
  const dialog = guest.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: 'Card payment' })).toBeVisible()
  await expect(dialog.getByRole('button', { name: /Edit title/ })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Mark card as Closed' })).toHaveCount(0)
  await expect(dialog.getByLabel('Size')).toBeDisabled()
  await expect(dialog.getByRole('button', { name: 'Post comment' })).toHaveCount(0)
  await guest.keyboard.press('Escape')
  await expect(guest).toHaveURL(new RegExp(`${new URL(shareUrl!).pathname}$`))

  await guest.goto('/link/not-a-real-key')
  await expect(guest.getByText('Project not found.')).toBeVisible()
  await visitor.close()
})

test('demo mode: every edit works locally and no request is sent', async ({ page, browser }) => {
  await buildSmallMap(page)
  const shareUrl = await page.getByRole('link', { name: 'Share link' }).getAttribute('href')
  const visitor = await browser.newContext()
  const guest = await visitor.newPage()
  await guest.goto(`${new URL(shareUrl!).pathname}?demo=1`)
  await expect(guest.getByText('DEMO MODE')).toBeVisible()
  await guest.waitForLoadState('networkidle')

  const sent: string[] = []
  guest.on('request', (r) => {
    if (r.method() !== 'GET' || r.url().includes('.data') || r.url().includes('/v1/'))
      sent.push(`${r.method()} ${r.url()}`)
  })
  await guest.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(guest, 'Demo feature')
  await expect(card(guest, 'Feature', 'Demo feature')).toBeVisible()
  await card(guest, 'Feature', 'Demo feature').click()
  await guest
    .getByRole('dialog')
    .getByRole('button', { name: /Edit title/ })
    .click()
  await guest.getByRole('dialog').getByLabel('Title').fill('Renamed in demo')
  await guest.getByRole('dialog').getByLabel('Title').press('Enter')
  await guest.getByRole('dialog').getByLabel('Write a comment').fill('Local only')
  await guest.getByRole('dialog').getByRole('button', { name: 'Post comment' }).click()
  await expect(guest.getByRole('dialog').getByText('Local only')).toBeVisible()
  await guest.getByRole('dialog').getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(card(guest, 'Feature', 'Renamed in demo')).toBeHidden()
  expect(sent).toEqual([])

  // Nothing reached the server: the owner's map is unchanged.
  await page.reload()
  await expect(cardsOf(page, 'Feature')).toHaveCount(3)
  await visitor.close()
})

test('a VIEWER sees the map view only, and a refused create disappears with an alert', async ({
  page,
  browser,
}) => {
  const { projectUrl, user } = await buildSmallMap(page)
  await settle(page)
  // A second account joins as VIEWER (the invitation flow has its own tests).
  const other = await browser.newContext()
  const viewerPage = await other.newPage()
  const { signUpThroughForm } = await import('./helpers')
  const viewer = await signUpThroughForm(viewerPage)
  const db = e2eDatabase()
  const ids = db
    .prepare(
      'select a.id as accountId, w.id as workspaceId from accounts a, workspaces w where a.email = ? and w.name = ?',
    )
    .get(viewer.email, user.workspaceName) as { accountId: string; workspaceId: string }
  db.prepare(
    "insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, 'VIEWER', ?)",
  ).run(crypto.randomUUID(), ids.workspaceId, ids.accountId, new Date().toISOString())

  await viewerPage.goto(projectUrl)
  await expect(viewerPage.getByText('VIEW ONLY')).toBeVisible()
  await expect(viewerPage.getByRole('button', { name: /Add/ })).toHaveCount(0)
  await viewerPage.goto(`/${user.workspaceName}`)
  await expect(viewerPage.getByRole('link', { name: 'New project' })).toHaveCount(0)

  // The owner's page is open with edit controls when the owner is demoted behind its back (its
  // live stream, which would tell it within seconds, is kept from reaching it).
  await page.route('**/v1/projects/*/events*', (route) => route.abort())
  await page.reload()
  await expect(page.getByRole('button', { name: 'Add feature to Later / Pay' })).toBeVisible()
  db.prepare(
    "update members set level = 'VIEWER' where account_id = (select id from accounts where email = ?) and workspace_id = ?",
  ).run(user.email, ids.workspaceId)
  db.close()
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Refused card')
  await expect(page.getByText('Something went wrong.')).toBeVisible()
  await expect(card(page, 'Feature', 'Refused card')).toHaveCount(0)
  await other.close()
})

test('sharing is the owner’s choice: stop and restart a project’s link, make a new one, switch the workspace off', async ({
  page,
  browser,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const shareLink = page.getByRole('link', { name: 'Share link' })
  const firstUrl = (await shareLink.getAttribute('href'))!
  const visitor = await browser.newContext()
  const guest = await visitor.newPage()
  await guest.goto(new URL(firstUrl).pathname)
  await expect(card(guest, 'Feature', 'Card payment')).toBeVisible()

  const openSharing = async () => {
    await page.getByRole('link', { name: 'Project settings' }).click()
    const sharing = page
      .getByRole('dialog', { name: 'Project card' })
      .getByRole('region', { name: 'Sharing' })
    await expect(sharing).toBeVisible()
    return sharing
  }
  const closeDialog = async () => {
    await page.keyboard.press('Escape')
    await expect(page.getByRole('dialog')).toHaveCount(0)
  }

  // Stop sharing: the board drops its link and the link itself is not found.
  let sharing = await openSharing()
  await expect(sharing).toContainText('Anyone with the share link can view this project.')
  await sharing.getByRole('button', { name: 'Stop sharing' }).click()
  await expect(sharing).toContainText('This project is not shared.')
  await expect(sharing.getByRole('button', { name: 'Stop sharing' })).toHaveCount(0)
  await closeDialog()
  await expect(shareLink).toHaveCount(0)
  await guest.reload()
  await expect(guest.getByText('Project not found.')).toBeVisible()

  // Share again: the same link works again.
  sharing = await openSharing()
  await sharing.getByRole('button', { name: 'Share again' }).click()
  await expect(sharing).toContainText('Anyone with the share link can view this project.')
  await closeDialog()
  await expect(shareLink).toHaveAttribute('href', firstUrl)
  await guest.reload()
  await expect(card(guest, 'Feature', 'Card payment')).toBeVisible()

  // New link: the old one is not found at once; the board shows the new one, which works.
  sharing = await openSharing()
  await sharing.getByRole('button', { name: 'New link' }).click()
  await expect(sharing.getByRole('status')).toHaveText('New link made. The old link no longer works.')
  await closeDialog()
  await expect(shareLink).not.toHaveAttribute('href', firstUrl)
  const secondUrl = (await shareLink.getAttribute('href'))!
  expect(secondUrl).toMatch(/\/link\/[A-Za-z0-9_-]{20,}$/)
  await guest.reload()
  await expect(guest.getByText('Project not found.')).toBeVisible()
  await guest.goto(new URL(secondUrl).pathname)
  await expect(card(guest, 'Feature', 'Card payment')).toBeVisible()

  // The workspace switch turns every link off; the project's dialog says why there is none.
  await page.goto(`/${user.workspaceName}/settings`)
  const workspaceSharing = page.getByRole('region', { name: 'Sharing' })
  await expect(workspaceSharing.getByRole('checkbox', { name: 'Allow external sharing' })).toBeChecked()
  await workspaceSharing.getByRole('checkbox', { name: 'Allow external sharing' }).uncheck()
  await workspaceSharing.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Settings changed', { exact: true })).toBeVisible()
  await expect(workspaceSharing.getByRole('checkbox', { name: 'Allow external sharing' })).not.toBeChecked()
  await page.goto(projectUrl)
  await expect(page.getByRole('heading', { name: 'Online shop', level: 1 })).toBeVisible()
  await expect(shareLink).toHaveCount(0)
  sharing = await openSharing()
  await expect(sharing).toContainText('External sharing is off for this workspace.')
  await expect(sharing.getByRole('button')).toHaveCount(0)
  await guest.reload()
  await expect(guest.getByText('Project not found.')).toBeVisible()
  await visitor.close()
})
