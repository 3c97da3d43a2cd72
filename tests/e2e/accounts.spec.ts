import { expect, test } from '@playwright/test'
import { accountMenu, signUpThroughForm, uniqueUser } from './helpers'

test('sign up, land in the workspace, log out and log back in', async ({ page }) => {
  const user = await signUpThroughForm(page)
  await page.getByRole('link', { name: 'Get started' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()
  await expect(page.getByText('No projects')).toBeVisible()
  await expect(page.getByText('0 projects')).toBeVisible()

  await accountMenu(page).click()
  await expect(page.getByText(user.email)).toBeVisible()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/account\/login$/)

  // The old session is gone: the workspace now asks for a log-in.
  await page.goto(`/${user.workspaceName}`)
  await expect(page).toHaveURL(/\/account\/login/)

  await page.getByLabel('Email').fill(user.email)
  await page.getByLabel('Password').fill(user.password)
  await page.getByRole('button', { name: 'Log in' }).click()
  await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()
})

test('sign-up validates inline with SPEC texts', async ({ page }) => {
  await page.goto('/account/signup')
  await page.getByLabel('Workspace name').fill('My Team')
  await page.getByLabel('Name', { exact: true }).fill('Ann')
  await page.getByLabel('Email').fill('ann@')
  await page.getByLabel('Password').fill('123')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Lowercase alphanumerics only. Spaces not allowed.')).toBeVisible()
  await expect(page.getByText('Invalid email address.')).toBeVisible()
  await expect(page.getByText('Minimum 6 characters.')).toBeVisible()
  await expect(page).toHaveURL(/\/account\/signup$/)
})

test('the account forms check their fields on submit, so leaving a field moves nothing', async ({ page }) => {
  await page.goto('/account/login')
  await page.getByLabel('Email').fill('ann@')
  // One click on the link below: the e-mail field loses focus and no message pushes the link away.
  await page.getByRole('link', { name: 'Sign up' }).click()
  await expect(page).toHaveURL(/\/account\/signup$/)
  await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible()

  await page.getByLabel('Email').fill('ann@')
  await page.getByLabel('Password').focus()
  await expect(page.getByText('Invalid email address.')).toHaveCount(0)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Invalid email address.')).toBeVisible()
  // After the first submit the messages follow the typing.
  await page.getByLabel('Email').fill('ann@example.com')
  await expect(page.getByText('Invalid email address.')).toHaveCount(0)

  await page.goto('/account/reset')
  await page.getByLabel('Email').fill('ann@')
  await page.getByLabel('Email').blur()
  await expect(page.getByText('Invalid email address.')).toHaveCount(0)
})

test('sign-up refuses a taken workspace name after the server round trip', async ({ page, context }) => {
  const first = await signUpThroughForm(page)
  await context.clearCookies()
  const second = { ...uniqueUser(), workspaceName: first.workspaceName }
  await page.goto('/account/signup')
  await page.getByLabel('Workspace name').fill(second.workspaceName)
  await page.getByLabel('Name', { exact: true }).fill(second.name)
  await page.getByLabel('Email').fill(second.email)
  await page.getByLabel('Password').fill(second.password)
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Workspace name is already registered.')).toBeVisible()
})

test('a second workspace from the New workspace dialog', async ({ page }) => {
  await signUpThroughForm(page)
  await page.goto('/account/workspaces')
  await page.getByRole('link', { name: 'New workspace' }).click()
  const dialog = page.getByRole('dialog', { name: 'Create workspace' })
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Name').fill('x')
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(dialog.getByText('Minimum 2 characters.')).toBeVisible()
  const name = `second${Date.now().toString(36)}`
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(new RegExp(`/${name}$`))
  // With two workspaces, / goes to the list.
  await page.goto('/')
  await expect(page).toHaveURL(/\/account\/workspaces$/)
  await expect(page.getByRole('link', { name })).toBeVisible()
})

test('unknown paths show Page not found', async ({ page }) => {
  const response = await page.goto('/account/nothing-here')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the log-in form works by server round trip', async ({ page, browser }) => {
    // Create the account with JavaScript on, in a separate context.
    const setup = await browser.newContext()
    const user = await signUpThroughForm(await setup.newPage())
    await setup.close()

    await page.goto('/account/login')
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page.getByText('Email required.')).toBeVisible()
    await expect(page.getByText('Password required.')).toBeVisible()

    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill('wrong-password')
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page.getByText('Email or password is incorrect.')).toBeVisible()

    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Log in' }).click()
    await expect(page).toHaveURL(new RegExp(`/${user.workspaceName}$`))
    await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible()
  })

  test('sign-up shows SPEC messages by server round trip', async ({ page }) => {
    await page.goto('/account/signup')
    await page.getByLabel('Workspace name').fill('Bad Name')
    await page.getByLabel('Email').fill('nope')
    await page.getByLabel('Password').fill('123')
    await page.getByRole('button', { name: 'Sign up' }).click()
    await expect(page.getByText('Lowercase alphanumerics only. Spaces not allowed.')).toBeVisible()
    await expect(page.getByText('Required.')).toBeVisible()
    await expect(page.getByText('Invalid email address.')).toBeVisible()
    await expect(page.getByText('Minimum 6 characters.')).toBeVisible()
  })
})
