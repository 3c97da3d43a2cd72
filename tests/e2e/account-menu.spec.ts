import { expect, test, type Page } from '@playwright/test'
import { accountMenu } from './helpers'
import { openSeededBoard } from './map-fixture'

/** Opens the header's account menu on a hydrated board and returns its summary. */
async function openMenu(page: Page) {
  const map = await openSeededBoard(page, test.info().project.use.baseURL!)
  const summary = accountMenu(page)
  await expect(summary).toHaveAccessibleName(`${map.owner.workspaceName} account menu`)
  await summary.click()
  await expect(page.getByRole('menuitem', { name: 'Account settings' })).toBeVisible()
  return summary
}

const menuItem = (page: Page) => page.getByRole('menuitem', { name: 'Account settings' })

test('Escape closes the account menu and gives focus back to its button, leaving the panel beneath open', async ({
  page,
}) => {
  const map = await openSeededBoard(page, test.info().project.use.baseURL!)
  await page.getByRole('button', { name: 'Personas' }).click()
  const personas = page.getByRole('complementary', { name: 'Personas' })
  await expect(personas).toBeVisible()
  const summary = accountMenu(page)
  await expect(summary).toHaveAccessibleName(`${map.owner.workspaceName} account menu`)
  // The panel covers the header's right end: the keyboard opens the menu.
  await summary.focus()
  await page.keyboard.press('Enter')
  await menuItem(page).focus()

  await page.keyboard.press('Escape')
  await expect(menuItem(page)).toBeHidden()
  await expect(summary).toBeFocused()
  await expect(personas).toBeVisible()
})

test('a click outside the account menu closes it', async ({ page }) => {
  await openMenu(page)
  await page.getByRole('heading', { level: 1 }).click()
  await expect(menuItem(page)).toBeHidden()
})

test('the account menu closes when a dialog opens', async ({ page }) => {
  const summary = await openMenu(page)
  await expect(summary).toBeFocused()
  await page.keyboard.press('?')
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible()
  await expect(menuItem(page)).toBeHidden()
})

test('Tab past the last item closes the account menu', async ({ page }) => {
  await openMenu(page)
  await page.getByRole('menuitem', { name: 'Log out' }).focus()
  await page.keyboard.press('Tab')
  await expect(menuItem(page)).toBeHidden()
})
