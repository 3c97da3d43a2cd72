import { expect, test } from '@playwright/test'
import { buildSmallMap, card, newCard, settle } from './board-helpers'
import { expectNoSeriousAxeFindings } from './helpers'

/**
 * A session that ends while a board is open (a log-out in another tab, issue 43): the board
 * stays, says so, keeps what is typed and every edit made meanwhile, and saves them after a new
 * log-in, without ever going to the log-in page.
 */
test.describe.configure({ timeout: 90_000 })

const SIGNED_OUT = 'You were signed out: log in to save your changes'

test('signed out in another tab: the board stays, keeps what is typed, and saves it all after logging in again', async ({
  page,
}) => {
  const { user, projectUrl } = await buildSmallMap(page)
  const pages: string[] = []
  page.on('framenavigated', (frame) => frame === page.mainFrame() && pages.push(frame.url()))

  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog', { name: 'Feature card' })
  await dialog.getByRole('button', { name: 'Edit description' }).click()
  await dialog.getByLabel('Description').fill('By price, typed before the log-out')

  // Another tab of the same browser logs out: the session ends on the server and its cookie goes.
  const other = await page.context().newPage()
  await other.goto('/account/logout')
  await expect(other).toHaveURL(/\/account\/login/)
  await other.close()

  const notice = page.getByRole('alert').filter({ hasText: SIGNED_OUT })
  await expect(notice).toBeVisible({ timeout: 20_000 })
  await expect(page.getByText('Reconnecting…')).toHaveCount(0)
  await expect(dialog.getByLabel('Description')).toHaveValue('By price, typed before the log-out')
  await dialog.getByLabel('Description').press('End')
  await dialog.getByLabel('Description').pressSequentially(' and after')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByText('By price, typed before the log-out and after')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  // A new card while signed out shows at once and waits.
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await newCard(page, 'Gift cards')
  await expect(card(page, 'Feature', 'Gift cards')).toBeVisible()
  await expect(notice).toBeVisible()
  expect(page.url()).toContain(projectUrl)

  // Logging in again from the board: everything waiting is saved, in order.
  await notice.getByRole('button', { name: 'Log in' }).click()
  const login = page.getByRole('dialog', { name: 'Log in to save your changes' })
  await expect(login.getByLabel('Email')).toHaveValue(user.email)
  await login.getByLabel('Password').fill('not the password')
  await login.getByRole('button', { name: 'Log in' }).click()
  await expect(login.getByRole('alert')).toHaveText('Email or password is incorrect.')
  await expectNoSeriousAxeFindings(page, '.session-notice')
  await login.getByLabel('Password').fill(user.password)
  await login.getByRole('button', { name: 'Log in' }).click()
  await expect(login).toBeHidden()
  await expect(notice).toHaveCount(0)
  await settle(page)
  expect(
    pages.filter((url) => url.includes('/account/login')),
    'never on the log-in page',
  ).toEqual([])

  await page.reload()
  await expect(card(page, 'Feature', 'Gift cards')).toBeVisible()
  await card(page, 'Feature', 'Filters').click()
  await expect(
    page.getByRole('dialog').getByText('By price, typed before the log-out and after'),
  ).toBeVisible()
})
