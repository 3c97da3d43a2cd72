import { expect, test, type Page } from '@playwright/test'
import { accountMenu, signUpThroughForm } from './helpers'

/** Themes (CONTRACT §12): System / Light / Dark in the account menu, kept per account and in a cookie. */
const background = (page: Page) =>
  page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
const LIGHT_BG = 'rgb(244, 245, 248)'
const DARK_BG = 'rgb(18, 21, 28)'

test('choose dark in the account menu: it stays after a reload, logged out, and on another browser after log-in', async ({
  page,
  browser,
  baseURL,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  expect(await background(page)).toBe(LIGHT_BG)
  await accountMenu(page).click()
  const themes = page.getByRole('group', { name: 'Theme' })
  await expect(themes.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true')
  await themes.getByRole('menuitemradio', { name: 'Dark' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await expect.poll(() => background(page)).toBe(DARK_BG)
  await expect(themes.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true')

  // The server renders the chosen theme into the page: no flash of the light one.
  const html = await (await page.request.get(page.url())).text()
  expect(html).toContain('data-theme="dark"')
  await page.reload()
  expect(await background(page)).toBe(DARK_BG)

  // Logged out, the cookie keeps it; a new browser gets it from the account at log-in.
  await page.goto('/account/logout')
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  const other = await browser.newContext({ baseURL })
  const second = await other.newPage()
  await second.goto('/account/login')
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'system')
  await second.getByLabel('Email').fill(user.email)
  await second.getByLabel('Password').fill(user.password)
  await second.getByRole('button', { name: 'Log in' }).click()
  await expect(second.locator('html')).toHaveAttribute('data-theme', 'dark')
  expect(await background(second)).toBe(DARK_BG)
  await other.close()
})

test('System follows the operating system; Light overrides it; printing is always light', async ({
  page,
}) => {
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expect.poll(() => background(page)).toBe(DARK_BG)
  await accountMenu(page).click()
  await page.getByRole('group', { name: 'Theme' }).getByRole('menuitemradio', { name: 'Light' }).click()
  await expect.poll(() => background(page)).toBe(LIGHT_BG)
  await page.getByRole('group', { name: 'Theme' }).getByRole('menuitemradio', { name: 'Dark' }).click()
  await expect.poll(() => background(page)).toBe(DARK_BG)
  await page.emulateMedia({ colorScheme: 'dark', media: 'print' })
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light')
  expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe('rgb(28, 34, 48)')
})

test('the theme buttons work without JavaScript', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false })
  const page = await context.newPage()
  const user = await signUpThroughForm(page)
  await page.goto(`/${user.workspaceName}`)
  await page.locator('header details summary').click()
  await page.getByRole('menuitemradio', { name: 'Dark' }).click()
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark')
  await context.close()
})
