import Database from 'better-sqlite3'
import crypto from 'node:crypto'
import type { Client } from './client'

export const uuid = () => crypto.randomUUID()

/** Makes `accountId` a member of `workspaceId` at `level` by writing the server's database directly; answers the member id. */
export function addMember(
  dbPath: string,
  workspaceId: string,
  accountId: string,
  level: 'VIEWER' | 'EDITOR' | 'ADMIN' | 'OWNER',
) {
  const memberId = uuid()
  const db = new Database(dbPath)
  db.pragma('busy_timeout = 5000')
  db.prepare(
    'insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, ?, ?)',
  ).run(memberId, workspaceId, accountId, level, new Date().toISOString())
  db.close()
  return memberId
}

async function ok(res: Promise<{ status: number; json: any; text: string }>) {
  const r = await res
  if (r.status !== 200) throw new Error(`expected 200, got ${r.status} ${r.text}`)
  return r.json
}

/** A small map: one project, a goal with an activity, a release and a feature in that cell, a comment and a persona on the goal. */
export async function makeBoard(client: Client) {
  const ids = {
    project: uuid(),
    workflow: uuid(),
    subworkflow: uuid(),
    milestone: uuid(),
    feature: uuid(),
    comment: uuid(),
    persona: uuid(),
    workflowPersona: uuid(),
  }
  await ok(client.post(`/v1/projects/${ids.project}`, { title: 'Map' }))
  await ok(client.post(`/v1/workflows/${ids.workflow}`, { projectId: ids.project, title: 'Goal' }))
  await ok(
    client.post(`/v1/subworkflows/${ids.subworkflow}`, { workflowId: ids.workflow, title: 'Activity' }),
  )
  await ok(client.post(`/v1/milestones/${ids.milestone}`, { projectId: ids.project, title: 'Release' }))
  await ok(
    client.post(`/v1/features/${ids.feature}`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: 'Feature',
    }),
  )
  await ok(client.post(`/v1/featurecomments/${ids.comment}`, { featureId: ids.feature, post: 'Hello' }))
  await ok(
    client.post(`/v1/personas/${ids.persona}`, {
      projectId: ids.project,
      avatar: 'avatar01',
      name: 'Pat',
      role: 'Buyer',
      description: '',
      workflowId: ids.workflow,
      workflowPersonaId: ids.workflowPersona,
    }),
  )
  return ids
}

export async function bundle(client: Client, projectId: string) {
  return ok(client.get(`/v1/projects/${projectId}`))
}

export type Call = { name: string; method: 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown }
type BoardIds = Awaited<ReturnType<typeof makeBoard>>

/** Every write route of the story-map API, with a valid body for the board `ids`; creates use fresh ids. */
export function writeCalls(ids: BoardIds): Call[] {
  const calls: Call[] = [
    { name: 'project create', method: 'POST', path: `/v1/projects/${uuid()}`, body: { title: 'New' } },
    {
      name: 'project rename',
      method: 'POST',
      path: `/v1/projects/${ids.project}/rename`,
      body: { title: 'X' },
    },
    {
      name: 'project description',
      method: 'POST',
      path: `/v1/projects/${ids.project}/description`,
      body: { description: 'X' },
    },
    { name: 'project delete', method: 'DELETE', path: `/v1/projects/${ids.project}` },
    {
      name: 'milestone create',
      method: 'POST',
      path: `/v1/milestones/${uuid()}`,
      body: { projectId: ids.project, title: 'R' },
    },
    {
      name: 'workflow create',
      method: 'POST',
      path: `/v1/workflows/${uuid()}`,
      body: { projectId: ids.project, title: 'G' },
    },
    {
      name: 'subworkflow create',
      method: 'POST',
      path: `/v1/subworkflows/${uuid()}`,
      body: { workflowId: ids.workflow, title: 'A' },
    },
    {
      name: 'feature create',
      method: 'POST',
      path: `/v1/features/${uuid()}`,
      body: { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow, title: 'F' },
    },
    {
      name: 'milestone move',
      method: 'POST',
      path: `/v1/milestones/${ids.milestone}/move`,
      body: { index: 0 },
    },
    { name: 'workflow move', method: 'POST', path: `/v1/workflows/${ids.workflow}/move`, body: { index: 0 } },
    {
      name: 'subworkflow move',
      method: 'POST',
      path: `/v1/subworkflows/${ids.subworkflow}/move`,
      body: { toWorkflowId: ids.workflow, index: 0 },
    },
    {
      name: 'feature move',
      method: 'POST',
      path: `/v1/features/${ids.feature}/move`,
      body: { toSubWorkflowId: ids.subworkflow, toMilestoneId: ids.milestone, index: 0 },
    },
    {
      name: 'feature estimate',
      method: 'POST',
      path: `/v1/features/${ids.feature}/estimate`,
      body: { estimate: 5 },
    },
    {
      name: 'comment create',
      method: 'POST',
      path: `/v1/featurecomments/${uuid()}`,
      body: { featureId: ids.feature, post: 'Hi' },
    },
    {
      name: 'comment edit',
      method: 'POST',
      path: `/v1/featurecomments/${ids.comment}/post`,
      body: { description: 'Edited' },
    },
    { name: 'comment delete', method: 'DELETE', path: `/v1/featurecomments/${ids.comment}` },
    {
      name: 'persona create',
      method: 'POST',
      path: `/v1/personas/${uuid()}`,
      body: { projectId: ids.project, avatar: 'avatar02', name: 'Sam', role: '', description: '' },
    },
    {
      name: 'persona update',
      method: 'PUT',
      path: `/v1/personas/${ids.persona}`,
      body: { avatar: 'avatar03', name: 'Pam', role: 'R', description: 'D' },
    },
    { name: 'persona delete', method: 'DELETE', path: `/v1/personas/${ids.persona}` },
    {
      name: 'workflowpersona create',
      method: 'POST',
      path: `/v1/workflowpersonas/${uuid()}`,
      body: { workflowId: ids.workflow, personaId: ids.persona },
    },
    { name: 'workflowpersona delete', method: 'DELETE', path: `/v1/workflowpersonas/${ids.workflowPersona}` },
    {
      name: 'allow external sharing',
      method: 'POST',
      path: '/v1/settings/allow-external-sharing',
      body: { value: false },
    },
  ]
  const cards = {
    milestones: ids.milestone,
    workflows: ids.workflow,
    subworkflows: ids.subworkflow,
    features: ids.feature,
  }
  for (const [kind, id] of Object.entries(cards)) {
    calls.push(
      { name: `${kind} rename`, method: 'POST', path: `/v1/${kind}/${id}/rename`, body: { title: 'X' } },
      {
        name: `${kind} description`,
        method: 'POST',
        path: `/v1/${kind}/${id}/description`,
        body: { description: 'X' },
      },
      { name: `${kind} close`, method: 'POST', path: `/v1/${kind}/${id}/close` },
      { name: `${kind} open`, method: 'POST', path: `/v1/${kind}/${id}/open` },
      { name: `${kind} color`, method: 'POST', path: `/v1/${kind}/${id}/color`, body: { color: 'RED' } },
      {
        name: `${kind} annotations`,
        method: 'POST',
        path: `/v1/${kind}/${id}/annotations`,
        body: { annotations: 'RISKY' },
      },
      { name: `${kind} delete`, method: 'DELETE', path: `/v1/${kind}/${id}` },
    )
  }
  return calls
}

export function send(client: Client, call: Call) {
  return client.request(call.method, call.path, call.body)
}
