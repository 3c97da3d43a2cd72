import { expect, test, type Page } from '@playwright/test'
import { card, cardsOf, createProject, e2eDatabase, settle } from './board-helpers'
import { expectNoSeriousAxeFindings, signUpThroughForm } from './helpers'

/** `New project` and `Save as template` (CONTRACT §16). */

const ONLINE_SHOP_SHAPE = '4 goals, 10 activities, 3 releases, 32 features'

async function saveAsTemplate(page: Page, title: string) {
  const menu = page.getByRole('button', { name: 'Project menu' })
  await menu.click()
  await page.getByRole('menuitem', { name: 'Save as template' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save as template' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByText(`Saved as template “${title}”.`)).toBeVisible()
  // Focus goes back to the menu's button, as the item that opened the dialog is gone.
  await expect(menu).toBeFocused()
}

test('create a project from a built-in template, save a board as a template, rename and delete it', async ({
  page,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  const opener = page.getByRole('link', { name: 'New project' })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: 'Create project' })
  const choices = dialog.getByRole('group', { name: 'Start from' })
  await expect(choices.getByRole('radio', { name: 'Blank' })).toBeChecked()
  const shop = choices.getByRole('radio', { name: 'Online shop' })
  await expect(shop).toHaveAccessibleDescription(/^A small shop selling online/)
  await expect(dialog.getByText(ONLINE_SHOP_SHAPE)).toBeHidden()
  await shop.check()
  // The chosen template shows its shape: its counts and its goals' titles.
  await expect(dialog.getByText(ONLINE_SHOP_SHAPE)).toBeVisible()
  await expect(dialog.getByText(/^Goals: Find a product · /)).toBeVisible()
  await expectNoSeriousAxeFindings(page, '[role="dialog"]')

  // Cancel gives focus back to the link that opened the dialog.
  await dialog.getByRole('link', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(opener).toBeFocused()

  await opener.click()
  await dialog.getByLabel('Title').fill('Spring shop')
  await choices.getByRole('radio', { name: 'Online shop' }).check()
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: 'Spring shop', level: 1 })).toBeVisible()
  await expect(cardsOf(page, 'Goal')).toHaveCount(4)
  await expect(cardsOf(page, 'Goal').first()).toHaveText(/Find a product/)
  // The new board's first card has the focus.
  await expect(cardsOf(page, 'Goal').first()).toBeFocused()
  await expect(card(page, 'Feature', 'Category pages')).toBeVisible()
  await expect(cardsOf(page, 'Feature')).toHaveCount(32)

  // The map came with the project in one change: Undo takes it off the board, Redo brings it back.
  await settle(page)
  const history = page.getByRole('group', { name: 'History' })
  await expect(history.getByRole('button', { name: 'Undo' })).toHaveAttribute(
    'title',
    /^Undo: Created project 'Spring shop' from template 'Online shop'/,
  )
  await history.getByRole('button', { name: 'Undo' }).click()
  await expect(cardsOf(page, 'Feature')).toHaveCount(0)
  await expect(cardsOf(page, 'Goal')).toHaveCount(0)
  await history.getByRole('button', { name: 'Redo' }).click()
  await expect(cardsOf(page, 'Feature')).toHaveCount(32)
  await settle(page)

  // Save as template asks for a title, prefilled with the project's; Cancel gives focus back to the menu.
  const menu = page.getByRole('button', { name: 'Project menu' })
  await menu.click()
  await page.getByRole('menuitem', { name: 'Save as template' }).click()
  const saving = page.getByRole('dialog', { name: 'Save as template' })
  await expect(saving.getByLabel('Title')).toHaveValue('Spring shop')
  await expect(saving.getByLabel('Title')).toBeFocused()
  await saving.getByLabel('Title').fill(' ')
  await saving.getByRole('button', { name: 'Save' }).click()
  await expect(saving.getByRole('alert')).toHaveText('Title required.')
  await expectNoSeriousAxeFindings(page, '[role="dialog"]')
  await saving.getByRole('button', { name: 'Cancel' }).click()
  await expect(saving).toBeHidden()
  await expect(menu).toBeFocused()

  // Save the board as a template: New project offers it beside the built-in ones.
  await saveAsTemplate(page, 'Our shop')
  await page.goto(`/${user.workspaceName}?new=1`)
  const ours = choices.getByRole('radio', { name: /^Our shop/ })
  await expect(ours).toBeVisible()
  await ours.check()
  // Only the chosen one shows its shape (the built-in it was made from has the same).
  await expect(dialog.getByText(ONLINE_SHOP_SHAPE).filter({ visible: true })).toHaveCount(1)
  await dialog.getByLabel('Title').fill('Autumn shop')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: 'Autumn shop', level: 1 })).toBeVisible()
  await expect(cardsOf(page, 'Feature')).toHaveCount(32)

  // Workspace settings list it: rename, then delete (after a confirmation).
  await page.goto(`/${user.workspaceName}/settings`)
  const section = page.getByRole('region', { name: 'Templates' })
  await expect(section.getByText('Our shop')).toBeVisible()
  await section.getByRole('link', { name: 'Rename Our shop' }).click()
  await expect(section.getByLabel('Title of Our shop')).toBeFocused()
  await section.getByLabel('Title of Our shop').fill('')
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(section.getByText('Title required.')).toBeVisible()
  await section.getByLabel('Title of Our shop').fill('House shop')
  await section.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Template renamed.')).toBeVisible()
  await expect(section.getByText('House shop')).toBeVisible()
  await expect(section.getByRole('link', { name: 'Rename House shop' })).toBeFocused()
  await expectNoSeriousAxeFindings(page, '#templates')
  await section.getByRole('link', { name: 'Delete House shop' }).click()
  await expect(section.getByRole('button', { name: 'Delete template' })).toBeFocused()
  await section.getByRole('link', { name: 'Cancel' }).click()
  await expect(section.getByRole('link', { name: 'Delete House shop' })).toBeVisible()
  await expect(section.getByRole('link', { name: 'Rename House shop' })).toBeFocused()
  await section.getByRole('link', { name: 'Delete House shop' }).click()
  await section.getByRole('button', { name: 'Delete template' }).click()
  await expect(page.getByText('Template deleted.')).toBeVisible()
  await expect(section.getByRole('heading', { name: 'Templates' })).toBeFocused()
  await expect(section.getByText(/^No templates yet\./)).toBeVisible()

  await page.goto(`/${user.workspaceName}?new=1`)
  await expect(choices.getByRole('radio')).toHaveCount(5)
  await expect(choices.getByRole('radio', { name: /House shop/ })).toHaveCount(0)
})

test('an editor sees no Save as template, and the route refuses it', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await createProject(page, 'Team map')
  const boardPath = new URL(page.url()).pathname
  await page.getByRole('button', { name: 'Project menu' }).click()
  await expect(page.getByRole('menuitem', { name: 'Save as template' })).toBeVisible()

  const db = e2eDatabase()
  db.prepare(
    "update members set level = 'EDITOR' where account_id = (select id from accounts where email = ?) and workspace_id = (select id from workspaces where name = ?)",
  ).run(user.email, user.workspaceName)
  db.close()
  await page.reload()
  await page.getByRole('button', { name: 'Project menu' }).click()
  await expect(page.getByRole('menuitem', { name: 'Export JSON' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: 'Save as template' })).toHaveCount(0)
  const refused = await page.request.post(`${boardPath}/template`, { data: { title: 'Sneaky' } })
  expect(refused.status()).toBe(403)
  expect((await refused.json()).error).toBe('level_too_low')
  // Settings show no Templates section to an editor.
  await page.goto(`/${user.workspaceName}/settings`)
  await expect(page.getByRole('heading', { name: 'Workspace settings' })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Templates' })).toHaveCount(0)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('New project creates a project from a template', async ({ page }) => {
    const user = await signUpThroughForm(page)
    await page.goto(`/${user.workspaceName}?new=1`)
    const dialog = page.getByRole('dialog', { name: 'Create project' })
    await dialog.getByRole('radio', { name: 'SaaS product: first release' }).check()
    await expect(dialog.getByText('4 goals, 9 activities, 3 releases, 27 features')).toBeVisible()
    // A refused title keeps the chosen template.
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(dialog.getByText('Title required.')).toBeVisible()
    await expect(dialog.getByRole('radio', { name: 'SaaS product: first release' })).toBeChecked()
    await dialog.getByLabel('Title').fill('Launch')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(page.getByRole('heading', { name: 'Launch', level: 1 })).toBeVisible()
    await expect(card(page, 'Feature', 'Landing page')).toBeVisible()
  })
})
