import { uuid } from './board'
import type { Client } from './client'

async function ok(client: Client, path: string, body?: unknown) {
  const res = await client.post(path, body)
  if (res.status !== 200) throw new Error(`${path}: expected 200, got ${res.status} ${res.text}`)
  return res.json
}

/**
 * A map with something of everything an export must carry: cards moved out of creation order,
 * closed cards, colours, annotations, sizes, descriptions, formula-like titles, comments by two
 * members, a persona on two goals and one on none. `other` (an EDITOR of the same workspace)
 * writes one comment.
 */
export async function makeRichBoard(owner: Client, other: Client, title = 'Shop "Q3" / Ops') {
  const project = uuid()
  await ok(owner, `/v1/projects/${project}`, { title })
  await ok(owner, `/v1/projects/${project}/description`, {
    description: 'Everything the shop does.\n\n- a list',
  })
  const [browse, buy] = [uuid(), uuid()]
  await ok(owner, `/v1/workflows/${browse}`, { projectId: project, title: 'Browse' })
  await ok(owner, `/v1/workflows/${buy}`, { projectId: project, title: 'Buy' })
  await ok(owner, `/v1/workflows/${buy}/move`, { index: 0 })
  await ok(owner, `/v1/workflows/${browse}/color`, { color: 'BLUE' })
  await ok(owner, `/v1/workflows/${browse}/annotations`, { annotations: 'UNCLEAR' })
  const [search, filter, pay] = [uuid(), uuid(), uuid()]
  await ok(owner, `/v1/subworkflows/${search}`, { workflowId: browse, title: 'Search' })
  await ok(owner, `/v1/subworkflows/${filter}`, { workflowId: browse, title: 'Filter' })
  await ok(owner, `/v1/subworkflows/${pay}`, { workflowId: buy, title: 'Pay' })
  await ok(owner, `/v1/subworkflows/${filter}/description`, { description: 'Narrow it down' })
  const [mvp, later] = [uuid(), uuid()]
  await ok(owner, `/v1/milestones/${mvp}`, { projectId: project, title: 'MVP' })
  await ok(owner, `/v1/milestones/${later}`, { projectId: project, title: 'Later' })
  await ok(owner, `/v1/milestones/${later}/color`, { color: 'GREEN' })

  const feature = async (milestoneId: string, subWorkflowId: string, featureTitle: string) => {
    const id = uuid()
    await ok(owner, `/v1/features/${id}`, { milestoneId, subWorkflowId, title: featureTitle })
    return id
  }
  const byName = await feature(mvp, search, 'Find by name')
  const formula = await feature(mvp, search, '=SUM(A1:A9)')
  const third = await feature(mvp, search, 'Say "hi", then go')
  await ok(owner, `/v1/features/${third}/move`, { toSubWorkflowId: search, toMilestoneId: mvp, index: 0 })
  await ok(owner, `/v1/features/${byName}/estimate`, { estimate: 8 })
  await ok(owner, `/v1/features/${byName}/color`, { color: 'RED' })
  await ok(owner, `/v1/features/${byName}/annotations`, { annotations: 'RISKY,IDEA' })
  await ok(owner, `/v1/features/${byName}/description`, { description: '@everyone\nline two, "quoted"' })
  await ok(owner, `/v1/features/${formula}/estimate`, { estimate: 999 })
  const closed = await feature(later, pay, '-1 for cash')
  await ok(owner, `/v1/features/${closed}/close`)
  await feature(mvp, filter, '+ by price')
  await ok(owner, `/v1/milestones/${later}/close`)
  await ok(owner, `/v1/subworkflows/${filter}/close`)

  await ok(owner, `/v1/featurecomments/${uuid()}`, { featureId: byName, post: 'First thought' })
  await ok(other, `/v1/featurecomments/${uuid()}`, { featureId: byName, post: 'Second, from the editor' })
  await ok(owner, `/v1/featurecomments/${uuid()}`, { featureId: closed, post: '=cmd|"/c calc"!A1' })
  const pat = uuid()
  await ok(owner, `/v1/personas/${pat}`, {
    projectId: project,
    avatar: 'avatar03',
    name: 'Pat',
    role: 'Buyer',
    description: 'Buys **often**',
    workflowId: browse,
    workflowPersonaId: uuid(),
  })
  await ok(owner, `/v1/workflowpersonas/${uuid()}`, { workflowId: buy, personaId: pat })
  await ok(owner, `/v1/personas/${uuid()}`, {
    projectId: project,
    avatar: 'avatar07',
    name: 'Ann',
    role: '',
    description: '',
  })
  return { project, browse, buy, search, filter, pay, mvp, later, byName }
}
