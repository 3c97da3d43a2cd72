import { expect, type Page } from '@playwright/test'
import Database from 'better-sqlite3'
import path from 'node:path'
import { signUpThroughForm } from './helpers'

/** The e2e server's SQLite file (playwright.config.ts passes the folder to workers). */
export function e2eDatabase() {
  return new Database(path.join(process.env.E2E_DATA_DIR!, 'storymap.db'))
}

export async function createProject(page: Page, title = 'Online shop') {
  await page.getByRole('link', { name: 'New project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create project' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
}

/** Fills and submits the 'New card' modal. */
export async function newCard(page: Page, title: string) {
  const dialog = page.getByRole('dialog', { name: 'New card' })
  await dialog.getByLabel('Title').fill(title)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog).toBeHidden()
}

export const card = (page: Page, kind: 'Goal' | 'Activity' | 'Release' | 'Feature', title: string) =>
  page.getByRole('link', { name: new RegExp(`^${kind}: ${title}( \\(closed\\))?$`) })

/** Signs up and builds: goal "Shop" with activities "Search" and "Pay", releases "MVP" and "Later", features. */
export async function buildSmallMap(page: Page) {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await createProject(page)
  await expect(page.getByText('This board is empty, please start by adding a user goal')).toBeVisible()
  await page.getByRole('button', { name: 'Add goal' }).click()
  await newCard(page, 'Shop')
  await page.getByRole('button', { name: 'Add activity to goal Shop' }).click()
  await newCard(page, 'Search')
  await page.getByRole('button', { name: 'Add activity to goal Shop' }).click()
  await newCard(page, 'Pay')
  await page.getByRole('button', { name: '+ Add release' }).click()
  await newCard(page, 'MVP')
  await page.getByRole('button', { name: '+ Add release' }).click()
  await newCard(page, 'Later')
  await page.getByRole('button', { name: 'Add feature to MVP / Search' }).click()
  await newCard(page, 'Find by name')
  await page.getByRole('button', { name: 'Add feature to MVP / Search' }).click()
  await newCard(page, 'Filters')
  await page.getByRole('button', { name: 'Add feature to MVP / Pay' }).click()
  await newCard(page, 'Card payment')
  await expect(card(page, 'Feature', 'Card payment')).toBeVisible()
  const projectUrl = new URL(page.url()).pathname
  return { user, projectUrl }
}

/** Waits until every board write has reached the server (no pending fetcher requests). */
export async function settle(page: Page) {
  await page.waitForLoadState('networkidle')
}
