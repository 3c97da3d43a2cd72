import { expect, test } from '@playwright/test'
import { DEVELOPER, FakeGitlab } from '../support/fake-gitlab'
import { buildSmallMap, card, settle } from './board-helpers'

/**
 * The Tracker dialog's `Import issues` and Unlink (CONTRACT §14), against the fake GitLab on
 * loopback: two issues come into the chosen cell, and Unlink asks first.
 */
const PATH = 'acme/imports'
let gitlab: FakeGitlab

test.beforeAll(async () => {
  gitlab = await new FakeGitlab().start({ prefix: '/gitlab' })
  gitlab.addProject(PATH)
  gitlab.addToken('glpat-import', { projects: { [PATH]: DEVELOPER } })
  gitlab.seedIssue(PATH, { title: 'Gift cards', labels: ['payments'] })
  gitlab.seedIssue(PATH, { title: 'Refunds' })
  gitlab.seedIssue(PATH, { title: 'Old coupons', state: 'closed' })
})
test.afterAll(async () => {
  await gitlab?.stop()
})

test('import two open issues from GitLab into a cell, see them on the board; Unlink asks to confirm', async ({
  page,
}) => {
  await buildSmallMap(page)
  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Tracker' }).click()
  const dialog = page.getByRole('dialog', { name: 'Tracker' })
  await dialog.getByLabel('Tracker').selectOption('gitlab')
  await dialog.getByLabel('GitLab address').fill(gitlab.url)
  await dialog.getByLabel('Project (group/name)').fill(PATH)
  await dialog.getByLabel('Token').fill('glpat-import')
  await dialog.getByRole('button', { name: 'Link', exact: true }).click()
  await expect(dialog.getByRole('status')).toHaveText(`Linked to GitLab ${PATH}.`)

  const form = dialog.getByRole('form', { name: 'Import issues' })
  await form.getByLabel('Release').selectOption({ label: 'Later' })
  await form.getByLabel('Activity').selectOption({ label: 'Pay' })
  await expect(form.getByRole('radio', { name: 'Open' })).toBeChecked()
  await form.getByRole('button', { name: 'Import issues' }).click()
  await expect(dialog.getByRole('status')).toHaveText('Imported 2 issues.')
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await settle(page)
  for (const title of ['Gift cards', 'Refunds']) {
    await expect(card(page, 'Feature', title)).toBeVisible()
    await expect(card(page, 'Feature', title).getByTestId('card-issue')).toHaveText(/^#\d+$/)
  }
  await expect(card(page, 'Feature', 'Old coupons')).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Release Later' })).toContainText('Gift cards')

  await page.getByRole('button', { name: 'Project menu' }).click()
  await page.getByRole('menuitem', { name: 'Tracker' }).click()
  const unlink = dialog.getByRole('button', { name: 'Unlink', exact: true })
  await unlink.click()
  const confirm = dialog.getByRole('alertdialog', { name: `Unlink GitLab ${PATH}?` })
  await expect(confirm).toContainText('The features keep their issue links.')
  await expect(confirm.getByRole('button', { name: 'Unlink', exact: true })).toBeFocused()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(unlink).toBeFocused()
  await expect(dialog.getByRole('region', { name: 'Link' })).toContainText(`Linked to GitLab ${PATH}`)

  await unlink.click()
  await confirm.getByRole('button', { name: 'Unlink', exact: true }).click()
  await expect(dialog.getByRole('status')).toHaveText('Unlinked.')
  await expect(dialog.getByText('This project is not linked to a tracker.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Close', exact: true }).click()
  await settle(page)
  await expect(card(page, 'Feature', 'Gift cards').getByTestId('card-issue')).toHaveText(/^#\d+$/)
})
