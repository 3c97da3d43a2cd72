import { expect, test } from '@playwright/test'
import { buildSmallMap, card, cardsOf, newCard, settle } from './board-helpers'

test('build a map with every card kind; it survives a reload', async ({ page }) => {
  await buildSmallMap(page)
  await settle(page)
  await page.reload()
  for (const [kind, title] of [
    ['Goal', 'Shop'],
    ['Activity', 'Search'],
    ['Activity', 'Pay'],
    ['Release', 'MVP'],
    ['Release', 'Later'],
    ['Feature', 'Find by name'],
    ['Feature', 'Filters'],
    ['Feature', 'Card payment'],
  ] as const) {
    await expect(card(page, kind, title)).toBeVisible()
  }
  // Features are in their cells, in creation order.
  const mvp = page.getByRole('region', { name: 'Release MVP' })
  await expect(cardsOf(mvp, 'Feature')).toHaveText(['Find by name', 'Filters', 'Card payment'])
  await expect(mvp.getByText('3 features')).toBeVisible()
})

test('the new card modal validates and can be cancelled', async ({ page }) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  const dialog = page.getByRole('dialog', { name: 'New feature in Later › Pay' })
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Required.')).toBeVisible()
  await dialog.getByLabel('Title').fill('x'.repeat(201))
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Maximum 200 characters.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Add feature to Later / Pay' }).click()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // Each says what it makes, and where (issue 43): not `New card`.
  for (const [button, title] of [
    ['Add goal', 'New goal'],
    ['Add release', 'New release after Later'],
    ['Add activity to goal Shop', 'New activity in Shop'],
  ]) {
    await page.getByRole('button', { name: button, exact: true }).click()
    const made = page.getByRole('dialog', { name: title, exact: true })
    await expect(made.getByRole('heading', { name: title })).toBeVisible()
    await expect(made.getByLabel('Title')).toBeFocused()
    await page.keyboard.press('Escape')
    await expect(made).toBeHidden()
  }
})

test('edit a feature: title, Markdown description, colour, annotations, size', async ({ page }) => {
  const { projectUrl } = await buildSmallMap(page)
  await card(page, 'Feature', 'Filters').click()
  await expect(page).toHaveURL(new RegExp(`${projectUrl}/f/[0-9a-f-]+$`))
  const dialog = page.getByRole('dialog')
  await expect(dialog.locator('.kind-label')).toHaveText('Feature')

  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('')
  await dialog.getByLabel('Title').press('Enter')
  await expect(dialog.getByText('Title required.')).toBeVisible()
  await dialog.getByLabel('Title').fill('Filter by price')
  await dialog.getByLabel('Title').press('Enter')
  await expect(dialog.getByRole('heading', { name: 'Filter by price' })).toBeVisible()

  await dialog.getByRole('button', { name: 'Edit description' }).click()
  await dialog
    .getByLabel('Description')
    .fill('**Bold** point\n\n<script>window.hacked = 1</script><img src=x onerror="window.hacked=2">')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.locator('.markdown strong')).toHaveText('Bold')
  await expect(dialog.locator('.markdown script, .markdown img')).toHaveCount(0)

  await dialog.getByRole('radio', { name: 'Green' }).check()
  await expect(dialog.getByRole('radio', { name: 'Green' })).toBeChecked()
  await dialog.getByText(/^Annotations/).click()
  await dialog.getByLabel('Risky').check()
  await dialog.getByLabel('Research needed').check()
  await expect(dialog.getByText('Annotations: Risky, Research needed')).toBeVisible()

  const size = dialog.getByLabel('Size')
  for (const [value, message] of [
    ['1000', 'Max 999.'],
    ['-2', 'Must be positive.'],
    ['abc', 'Must be an integer.'],
  ]) {
    await size.fill(value)
    await size.blur()
    await expect(dialog.getByText(message)).toBeVisible()
  }
  await size.fill('8')
  await size.blur()
  await expect(dialog.getByText(/^Last modified .* by /)).toBeVisible()
  await expect(dialog.getByText(/^Created .* by /)).toBeVisible()
  await settle(page)

  await page.keyboard.press('Escape')
  await expect(page).toHaveURL(new RegExp(`${projectUrl}$`))
  await page.reload()
  const tile = card(page, 'Feature', 'Filter by price')
  await expect(tile).toContainText('8')
  await expect(tile.locator('.card-color')).toHaveCSS('background-color', 'rgb(64, 192, 87)')
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined()

  // A pasted permalink opens the dialog on the server-rendered page.
  await tile.click()
  const permalink = await page.getByRole('dialog').getByLabel('Permalink', { exact: true }).inputValue()
  await page.goto(new URL(permalink).pathname)
  await expect(page.getByRole('dialog').getByRole('heading', { name: 'Filter by price' })).toBeVisible()
  await expect(page.getByRole('dialog').getByText('Annotations: Risky, Research needed')).toBeVisible()
  await expect(page.getByRole('dialog').getByLabel('Size')).toHaveValue('8')
})

test('close and reopen cards; closed ones are hidden unless Show closed', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Activity', 'Pay').click()
  await page.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(card(page, 'Activity', 'Pay')).toBeHidden()
  await expect(page.getByText('Closed cards not shown: 0 releases / 0 goals / 1 activities')).toBeVisible()

  await card(page, 'Feature', 'Filters').click()
  await page.getByRole('button', { name: 'Mark card as Closed' }).click()
  await expect(card(page, 'Feature', 'Filters')).toBeHidden()

  await page.getByLabel('Show closed').check()
  const closedTile = page.getByRole('link', { name: 'Filters (feature, closed)' })
  await expect(closedTile).toBeVisible()
  await expect(closedTile.locator('.card-title')).toHaveCSS('text-decoration-line', 'line-through')
  await expect(page.getByText(/Closed cards not shown/)).toBeHidden()

  await closedTile.click()
  const dialog = page.getByRole('dialog')
  // A closed card's title and description cannot be edited.
  await expect(dialog.getByRole('button', { name: /Edit title/ })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Edit description' })).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Reopen card' }).click()
  await expect(dialog.getByRole('button', { name: 'Mark card as Closed' })).toBeVisible()
  await expect(dialog).toBeVisible()
  await settle(page)
  await page.reload()
  await expect(card(page, 'Feature', 'Filters')).toBeVisible()
  await expect(card(page, 'Activity', 'Pay')).toBeHidden()
})

test('discuss a feature: post, edit and delete a comment, newest first', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Feature', 'Card payment').click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Post comment' }).click()
  await expect(dialog.getByText('Please write a comment.')).toBeVisible()
  await dialog.getByLabel('Write a comment').fill('First <b>thought</b>')
  await dialog.getByRole('button', { name: 'Post comment' }).click()
  await dialog.getByLabel('Write a comment').fill('Second thought')
  await dialog.getByRole('button', { name: 'Post comment' }).click()
  await expect(dialog.locator('.comment-post')).toHaveText(['Second thought', 'First <b>thought</b>'])
  await settle(page)
  await page.reload()
  const comments = page.getByRole('dialog').locator('.comment')
  await expect(comments.locator('.comment-post')).toHaveText(['Second thought', 'First <b>thought</b>'])
  await comments.first().getByRole('button', { name: 'Edit' }).click()
  await page.getByLabel('Edit comment').fill('Second thought, edited')
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click()
  await expect(comments.first().locator('.comment-post')).toHaveText('Second thought, edited')
  await comments.nth(1).getByRole('button', { name: 'Delete' }).click()
  await expect(comments).toHaveCount(1)
  await settle(page)
  await page.reload()
  await expect(page.getByRole('dialog').locator('.comment-post')).toHaveText(['Second thought, edited'])
})

test('personas: create one for a goal, view it, edit it, remove it from the goal', async ({ page }) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add persona to goal Shop' }).click()
  const panel = page.getByRole('complementary', { name: 'Personas' })
  await panel.getByRole('button', { name: 'Create' }).click()
  await expect(panel.getByText('Required.')).toBeVisible()
  await panel.getByRole('button', { name: 'Avatar 4' }).click()
  await panel.getByLabel('Name').fill('Sam Shopper')
  await panel.getByLabel('Role').fill('Returning customer')
  await panel.getByRole('button', { name: 'Create' }).click()
  await expect(panel.getByRole('heading', { name: 'Sam Shopper' })).toBeVisible()
  await expect(panel.getByText('Shop', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Persona Sam Shopper' })).toBeVisible()

  await panel.getByRole('button', { name: 'Edit' }).click()
  await panel.getByLabel('Role').fill('Weekly buyer')
  await panel.getByRole('button', { name: 'Save' }).click()
  await expect(panel.getByText('Weekly buyer')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()

  await settle(page)
  await page.reload()
  await page.getByRole('button', { name: 'Persona Sam Shopper' }).click()
  await expect(panel.getByText('Weekly buyer')).toBeVisible()
  await panel.getByRole('button', { name: 'Remove Sam Shopper from goal Shop' }).click()
  await expect(panel.getByText('Not on any goal.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Persona Sam Shopper' })).toBeHidden()
  await panel.getByRole('button', { name: 'All personas' }).click()
  await expect(panel.getByRole('button', { name: /Sam Shopper/ })).toBeVisible()
})

test('the project card: rename the project and delete it after confirmation', async ({ page }) => {
  const { user } = await buildSmallMap(page)
  await page.getByRole('link', { name: 'Project settings' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.locator('.kind-label')).toHaveText('Project')
  await dialog.getByRole('button', { name: /Edit title/ }).click()
  await dialog.getByLabel('Title').fill('Web shop')
  await dialog.getByLabel('Title').press('Enter')
  await expect(page.getByRole('heading', { name: 'Web shop', level: 1 })).toBeVisible()
  await dialog.getByRole('button', { name: 'Card menu' }).click()
  await dialog.getByRole('menuitem', { name: 'Delete' }).click()
  await dialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
  await expect(page.getByText('No projects')).toBeVisible()
})

test('deleting a release removes its features', async ({ page }) => {
  await buildSmallMap(page)
  await card(page, 'Release', 'MVP').click()
  await page.getByRole('dialog').getByRole('button', { name: 'Card menu' }).click()
  await page.getByRole('dialog').getByRole('menuitem', { name: 'Delete' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, delete' }).click()
  await expect(card(page, 'Release', 'MVP')).toBeHidden()
  await expect(card(page, 'Feature', 'Filters')).toBeHidden()
  await settle(page)
  await page.reload()
  await expect(card(page, 'Release', 'Later')).toBeVisible()
  await expect(cardsOf(page, 'Feature')).toHaveCount(0)
})

test('adding a goal from the button puts it last', async ({ page }) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Add goal' }).click()
  await newCard(page, 'Get help')
  await expect(cardsOf(page, 'Goal')).toHaveText([/Shop/, /Get help/])
})
