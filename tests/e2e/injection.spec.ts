import { expect, test } from '@playwright/test'
import crypto from 'node:crypto'
import { uniqueUser } from './helpers'

/** Issue #7: user strings with HTML in them show as text in a real browser, under the real CSP. */
const SCRIPT = '<script>window.__xss = 1</script>'
const IMG = '<img src=x onerror="window.__xss = 2">'

test('a <script> in a title, description, comment or persona is shown as text and never runs', async ({
  page,
}) => {
  const dialogs: string[] = []
  page.on('dialog', (d) => {
    dialogs.push(d.message())
    void d.dismiss()
  })
  const user = uniqueUser()
  const api = page.request
  expect((await api.post('/v1/users/signup', { data: user })).status()).toBe(200)
  const app = await (await api.get('/v1/account/app')).json()
  const headers = { Workspace: app.workspaces[0].id as string }
  const id = () => crypto.randomUUID()
  const ids = {
    project: id(),
    workflow: id(),
    subworkflow: id(),
    milestone: id(),
    feature: id(),
    persona: id(),
  }
  const post = async (path: string, data: object) =>
    expect((await api.post(path, { data, headers })).status(), path).toBe(200)
  await post(`/v1/projects/${ids.project}`, { title: `Map ${SCRIPT}` })
  await post(`/v1/workflows/${ids.workflow}`, { projectId: ids.project, title: 'Goal' })
  await post(`/v1/subworkflows/${ids.subworkflow}`, { workflowId: ids.workflow, title: 'Activity' })
  await post(`/v1/milestones/${ids.milestone}`, { projectId: ids.project, title: 'Release' })
  await post(`/v1/features/${ids.feature}`, {
    milestoneId: ids.milestone,
    subWorkflowId: ids.subworkflow,
    title: `Feature ${SCRIPT}`,
  })
  await post(`/v1/features/${ids.feature}/description`, {
    description: `Text ${SCRIPT} ${IMG} [link](javascript:alert(1))`,
  })
  await post(`/v1/featurecomments/${id()}`, { featureId: ids.feature, post: `Comment ${IMG}` })
  await post(`/v1/personas/${ids.persona}`, {
    projectId: ids.project,
    avatar: 'avatar01',
    name: `Pat ${SCRIPT}`,
    role: `Role ${IMG}`,
    description: `About ${SCRIPT}`,
    workflowId: ids.workflow,
    workflowPersonaId: id(),
  })

  await page.goto(`/${user.workspaceName}/projects/${ids.project}/f/${ids.feature}`)
  await expect(page.getByRole('heading', { name: `Map ${SCRIPT}`, level: 1 })).toBeVisible()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: `Feature ${SCRIPT}` })).toBeVisible()
  await expect(dialog.locator('.markdown')).toContainText(`Text ${SCRIPT} ${IMG}`)
  await expect(dialog.getByText(`Comment ${IMG}`)).toBeVisible()
  await page.keyboard.press('Escape')

  await page.getByRole('button', { name: `Persona Pat ${SCRIPT}` }).click()
  const panel = page.getByRole('complementary', { name: 'Personas' })
  await expect(panel.getByRole('heading', { name: `Pat ${SCRIPT}` })).toBeVisible()
  await expect(panel.getByText(`Role ${IMG}`)).toBeVisible()
  await expect(panel.getByText(`About ${SCRIPT}`)).toBeVisible()

  const injected = await page.evaluate(() => ({
    flag: (window as unknown as { __xss?: number }).__xss,
    elements: document.querySelectorAll('img[onerror], script:not([nonce]), a[href^="javascript:"]').length,
  }))
  expect(injected).toEqual({ flag: undefined, elements: 0 })
  expect(dialogs).toEqual([])
})
