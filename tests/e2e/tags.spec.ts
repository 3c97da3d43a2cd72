import { expect, test } from '@playwright/test'
import { card } from './board-helpers'
import { openSeededBoard, shownFeatures } from './map-fixture'
import { axeOn } from './helpers'

/** Tags (CONTRACT §12): tag a card in its dialog, filter and search by the tag, manage the project's tags. */
test('tag a card, see its label, filter and search by the tag, rename and delete it from the board menu', async ({
  page,
  baseURL,
}) => {
  const map = await openSeededBoard(page, baseURL!)
  await card(page, 'Feature', 'Pay by card').click()
  const dialog = page.getByRole('dialog')
  const tags = dialog.getByRole('group', { name: 'Tags' })
  await tags.getByRole('textbox', { name: 'New tag' }).fill('a, b')
  await tags.getByRole('button', { name: 'Add tag' }).click()
  await expect(tags.getByRole('alert')).toHaveText('A tag name has no commas.')
  await tags.getByRole('textbox', { name: 'New tag' }).fill('Mobile')
  await tags.getByRole('button', { name: 'Add tag' }).click()
  await expect(tags.getByRole('checkbox', { name: 'Mobile' })).toBeChecked()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  const tile = card(page, 'Feature', 'Pay by card')
  await expect(tile.locator('.tag-label')).toHaveText(['Mobile'])
  await expect(tile).toHaveAccessibleDescription(/Tags: Mobile/)
  // The server has it: a reload shows the label.
  await page.reload()
  await expect(card(page, 'Feature', 'Pay by card').locator('.tag-label')).toHaveText(['Mobile'])

  // The label prints, and the public link shows it too.
  await page.emulateMedia({ media: 'print' })
  await expect(card(page, 'Feature', 'Pay by card').locator('.tag-label')).toBeVisible()
  await page.emulateMedia({ media: 'screen' })
  const visitor = await page.context().browser()!.newPage()
  await visitor.goto(`${baseURL}${map.linkPath}`)
  await expect(card(visitor, 'Feature', 'Pay by card').locator('.tag-label')).toHaveText(['Mobile'])
  await visitor.close()

  // Filter by the tag: only its card stays; the URL and a chip say so.
  await page.getByRole('button', { name: 'Filters', exact: true }).click()
  await page.getByRole('group', { name: 'Tag' }).getByRole('checkbox', { name: 'Mobile' }).check()
  await expect.poll(() => shownFeatures(page)).toEqual(['Pay by card'])
  expect(new URL(page.url()).searchParams.getAll('tag')).toHaveLength(1)
  await expect(page.getByRole('button', { name: /Tag: Mobile/ })).toBeVisible()
  await page.getByRole('button', { name: /Tag: Mobile/ }).click()
  await expect.poll(async () => (await shownFeatures(page)).length).toBe(4)
  // The search finds a card by its tag's name.
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('mobile')
  await expect.poll(() => shownFeatures(page)).toEqual(['Pay by card'])
  await page.getByRole('searchbox', { name: 'Search cards' }).fill('')

  // The project's tags: rename, recolour, delete (with a confirmation).
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Tags' }).click()
  const tagsDialog = page.getByRole('dialog', { name: 'Tags' })
  await expect(tagsDialog.getByText('1 feature')).toBeVisible()
  const axe = await axeOn(page).include('.tags-dialog').withTags(['wcag2a', 'wcag2aa']).analyze()
  expect(axe.violations.map((v) => v.id)).toEqual([])
  const name = tagsDialog.getByRole('textbox', { name: 'Name of tag Mobile' })
  await name.fill('Phone')
  await name.press('Enter')
  await expect(tile.locator('.tag-label')).toHaveText(['Phone'])
  await tagsDialog.getByRole('combobox', { name: 'Color of tag Phone' }).selectOption('Green')
  await tagsDialog.getByRole('button', { name: 'Delete tag Phone' }).click()
  await tagsDialog.getByRole('button', { name: 'Yes, delete' }).click()
  await expect(tagsDialog.getByText('No tags yet.')).toBeVisible()
  await expect(tile.locator('.tag-label')).toHaveCount(0)
  await tagsDialog.getByRole('button', { name: 'Close' }).click()

  // Undo brings the tag back on its card.
  await page.keyboard.press('Control+z')
  await expect(card(page, 'Feature', 'Pay by card').locator('.tag-label')).toHaveText(['Phone'])
})
