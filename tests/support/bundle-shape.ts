/**
 * What a board shows, without what an import or a copy renews (CONTRACT §8): ids become labels
 * by board order (R0, G0, A0, F0, P0), ranks become order, cards lose their times and authors,
 * comments their member id. Two bundles with equal shapes are the same board.
 */
export function boardShape(bundle: any) {
  const labels = new Map<string, string>()
  const byRank = (a: any, b: any) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0)
  const label = (prefix: string, list: any[]) => list.forEach((x, i) => labels.set(x.id, `${prefix}${i}`))
  const card = (c: any) => ({
    title: c.title,
    description: c.description,
    color: c.color,
    status: c.status,
    annotations: c.annotations,
  })

  const milestones = [...bundle.milestones].sort(byRank)
  const workflows = [...bundle.workflows].sort(byRank)
  label('R', milestones)
  label('G', workflows)
  const goalIndex = (s: any) => workflows.findIndex((w) => w.id === s.workflowId)
  const subWorkflows = [...bundle.subWorkflows].sort((a, b) => goalIndex(a) - goalIndex(b) || byRank(a, b))
  label('A', subWorkflows)
  const cellOf = (f: any) => `${labels.get(f.milestoneId)}/${labels.get(f.subWorkflowId)}`
  const features = [...bundle.features].sort((a, b) =>
    cellOf(a) < cellOf(b) ? -1 : cellOf(a) > cellOf(b) ? 1 : byRank(a, b),
  )
  label('F', features)
  const personas = [...bundle.personas].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  label('P', personas)

  return {
    project: { title: bundle.project.title, description: bundle.project.description },
    milestones: milestones.map(card),
    workflows: workflows.map(card),
    subWorkflows: subWorkflows.map((s) => ({ ...card(s), goal: labels.get(s.workflowId) })),
    features: features.map((f) => ({ ...card(f), estimate: f.estimate, cell: cellOf(f) })),
    featureComments: bundle.featureComments.map((c: any) => ({
      feature: labels.get(c.featureId),
      post: c.post,
      createdAt: c.createdAt,
      createdByName: c.createdByName,
      lastModified: c.lastModified,
    })),
    personas: personas.map((p) => ({
      avatar: p.avatar,
      name: p.name,
      role: p.role,
      description: p.description,
      createdAt: p.createdAt,
    })),
    workflowPersonas: bundle.workflowPersonas
      .map((wp: any) => `${labels.get(wp.workflowId)}+${labels.get(wp.personaId)}`)
      .sort(),
  }
}

/** Every id in a bundle (entities and references), to check that a copy shares none. */
export function idsOf(bundle: any): Set<string> {
  const ids = new Set<string>([bundle.project.id])
  for (const list of [
    'milestones',
    'workflows',
    'subWorkflows',
    'features',
    'featureComments',
    'personas',
    'workflowPersonas',
  ]) {
    for (const entity of bundle[list]) ids.add(entity.id)
  }
  return ids
}
