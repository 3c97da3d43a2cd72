import { expect, test } from '@playwright/test'
import fs from 'node:fs'
import { card, cardsOf } from './board-helpers'
import { signUpThroughForm } from './helpers'

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) })

const BACKLOG = [
  'goal_title,activity_title,release_title,feature_title,feature_size,notes',
  'Shop,Search,MVP,Find by name,3,from the workshop',
  'Shop,Search,MVP,Filters,,',
  'Shop,Pay,MVP,Card payment,5,',
  'Account,Sign up,Later,Sign up with e-mail,,',
].join('\n')

test('import a CSV through the dialog: preview, then the new board; Export JSON downloads it', async ({
  page,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  const opener = page.getByRole('link', { name: 'Import project' })
  await opener.click()
  const dialog = page.getByRole('dialog', { name: 'Import project' })
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()

  // Cancel gives focus back to the button that opened the dialog.
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await expect(opener).toBeFocused()
  await opener.click()

  // A bad file is refused in the browser, with the server's message, before anything is sent.
  await dialog
    .getByLabel('File')
    .setInputFiles(csvFile('bad.csv', `${BACKLOG}\nShop,Pay,MVP,Refunds,lots,\n`))
  await expect(dialog.getByRole('alert')).toHaveText('line 6: feature_size must be a whole number 0–999')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()

  await dialog.getByLabel('File').setInputFiles(csvFile('backlog.csv', BACKLOG))
  await expect(dialog.getByRole('status')).toHaveText('2 goals, 3 activities, 2 releases, 4 features')
  await expect(dialog.getByRole('alert')).toHaveCount(0)
  await expect(dialog.getByLabel('Title (optional)')).toHaveAttribute('placeholder', 'backlog')
  await dialog.getByLabel('Title (optional)').fill('Spring backlog')
  await dialog.getByRole('button', { name: 'Import' }).click()

  await expect(page.getByRole('heading', { name: 'Spring backlog', level: 1 })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}/projects/[0-9a-f-]{36}$`))
  const mvp = page.getByRole('region', { name: 'Release MVP' })
  await expect(cardsOf(mvp, 'Feature')).toHaveText([/^Find by name/, /^Filters/, /^Card payment/])
  await expect(card(page, 'Feature', 'Sign up with e-mail')).toBeVisible()
  await expect(cardsOf(page, 'Goal')).toHaveText([/Shop/, /Account/])

  await page.getByRole('button', { name: 'Project menu' }).click()
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export JSON' }).click(),
  ])
  expect(download.suggestedFilename()).toBe('Spring backlog.storymap.json')
  const file = JSON.parse(fs.readFileSync(await download.path(), 'utf8'))
  expect(file).toMatchObject({ format: 'storymap', formatVersion: 1, project: { title: 'Spring backlog' } })
  expect(file.features.map((f: { title: string }) => f.title).sort()).toEqual([
    'Card payment',
    'Filters',
    'Find by name',
    'Sign up with e-mail',
  ])
  expect(file).not.toHaveProperty('version')
})

test('duplicate a project from its menu on the project list', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}?import=1`)
  const importDialog = page.getByRole('dialog', { name: 'Import project' })
  await importDialog.getByLabel('File').setInputFiles(csvFile('Backlog.csv', BACKLOG))
  await expect(importDialog.getByRole('status')).toHaveText('2 goals, 3 activities, 2 releases, 4 features')
  await importDialog.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByRole('heading', { name: 'Backlog', level: 1 })).toBeVisible()

  await page.goto(`/${user.workspaceName}`)
  await page.getByRole('button', { name: 'Project menu: Backlog' }).click()
  await page.getByRole('menuitem', { name: 'Duplicate' }).click()
  const dialog = page.getByRole('dialog', { name: 'Duplicate project' })
  await expect(dialog.getByLabel('Title')).toHaveValue('Copy of Backlog')
  await dialog.getByRole('button', { name: 'Duplicate' }).click()

  await expect(page.getByRole('heading', { name: 'Copy of Backlog', level: 1 })).toBeVisible()
  const mvp = page.getByRole('region', { name: 'Release MVP' })
  await expect(cardsOf(mvp, 'Feature')).toHaveText([/^Find by name/, /^Filters/, /^Card payment/])
  await page.goto(`/${user.workspaceName}`)
  await expect(page.getByText('2 projects')).toBeVisible()
})
