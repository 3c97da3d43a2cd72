import { expect, test, type Page } from '@playwright/test'
import { buildSmallMap, card, settle } from './board-helpers'

/** CONTRACT §7 on the board: undo and redo, the delete toast, the Activity and Trash panels. */
async function deleteCard(page: Page, kind: 'Feature' | 'Activity', title: string) {
  await card(page, kind, title).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Card menu' }).click()
  await dialog.getByRole('menuitem', { name: 'Delete' }).click()
  await dialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(card(page, kind, title)).toBeHidden()
}

test('delete a feature, press Ctrl+Z: it is back; Ctrl+Shift+Z deletes it again; the buttons say what they would do', async ({
  page,
}) => {
  await buildSmallMap(page)
  const history = page.getByRole('group', { name: 'History' })
  const redo = history.getByRole('button', { name: 'Redo' })
  await expect(redo).toBeDisabled()
  await expect(redo).toHaveAttribute('title', 'Nothing to redo')

  await deleteCard(page, 'Feature', 'Filters')
  await expect(page.getByRole('status').filter({ hasText: "Deleted 'Filters'" })).toBeVisible()
  await settle(page)
  await expect(history.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    /^Undo: Deleted feature 'Filters'/,
  )
  await page.locator('body').press('Control+z')
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await expect(redo).toBeEnabled()
  await expect(redo).toHaveAttribute('title', /^Redo: Deleted feature 'Filters'/)
  await page.locator('body').press('Control+Shift+z')
  await expect(card(page, 'Feature', 'Filters')).toBeHidden()
  await settle(page)
  await page.reload()
  await expect(card(page, 'Feature', 'Filters')).toBeHidden()
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
})

test('the toast after a delete undoes it; shortcuts do not fire while typing', async ({ page }) => {
  await buildSmallMap(page)
  await deleteCard(page, 'Feature', 'Card payment')
  const toast = page.getByRole('status').filter({ hasText: "Deleted 'Card payment'" })
  await toast.getByRole('button', { name: 'Undo' }).click()
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
  await settle(page)

  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Filters by price')
  await dialog.getByLabel('Title').press('Control+z') // the field's own undo, not the board's
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
})

test('restore an activity from the Trash panel; the Activity panel shows a rename as it happens', async ({
  page,
}) => {
  await buildSmallMap(page)
  await deleteCard(page, 'Activity', 'Search')
  await expect(card(page, 'Feature', 'Filters')).toBeHidden()
  await settle(page)

  await page.getByRole('button', { name: 'Trash', exact: true }).click()
  const trash = page.getByRole('complementary', { name: 'Trash' })
  await expect(trash.getByText('Search')).toBeVisible()
  await expect(trash).toContainText('3 cards')
  await trash.getByRole('button', { name: 'Restore Search' }).click()
  await expect(trash.getByRole('status')).toHaveText("Restored 'Search'.")
  await expect(card(page, 'Activity', 'Search')).toBeVisible()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await expect(trash.getByText('The trash is empty.')).toBeVisible()
  await trash.getByRole('button', { name: 'Close trash' }).click()

  await page.getByRole('button', { name: 'Activity', exact: true }).click()
  const activity = page.getByRole('complementary', { name: 'Activity' })
  await expect(activity.getByText("Restored activity 'Search' (2 features)")).toBeVisible()
  await card(page, 'Feature', 'Filters').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Price filter')
  await dialog.getByLabel('Title').press('Enter')
  await page.keyboard.press('Escape')
  await expect(activity.getByRole('listitem').first()).toContainText(
    "Renamed feature 'Filters' to 'Price filter'",
  )
  await expect(activity.getByRole('listitem').first()).toContainText(/ago$/)
})

test('delete forever asks first, then the entry is gone', async ({ page }) => {
  await buildSmallMap(page)
  await deleteCard(page, 'Feature', 'Filters')
  await settle(page)
  await page.getByRole('button', { name: 'Trash', exact: true }).click()
  const trash = page.getByRole('complementary', { name: 'Trash' })
  await trash.getByRole('button', { name: 'Delete forever Filters' }).click()
  await expect(trash.getByText("Delete 'Filters' forever? This cannot be undone.")).toBeVisible()
  await trash.getByRole('button', { name: 'Yes, delete forever' }).click()
  await expect(trash.getByText('The trash is empty.')).toBeVisible()
})

test('a deleted project waits in the project list’s Trash and comes back whole', async ({ page }) => {
  const { user } = await buildSmallMap(page)
  await page.getByRole('link', { name: 'Project settings' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Card menu' }).click()
  await dialog.getByRole('menuitem', { name: 'Delete' }).click()
  await dialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
  await expect(page.getByText('No projects')).toBeVisible()

  await page.getByRole('link', { name: 'Trash' }).click()
  const trash = page.getByRole('dialog', { name: 'Trash' })
  await expect(trash).toContainText('Online shop')
  await expect(trash).toContainText('9 cards')
  await trash.getByRole('button', { name: 'Restore Online shop' }).click()
  await expect(trash.getByText('The trash is empty.')).toBeVisible()
  await page.keyboard.press('Escape')
  await page.getByRole('link', { name: 'Online shop' }).click()
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
})
