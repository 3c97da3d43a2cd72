import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { formatDate } from '~/domain/dates'
import { listProjects } from '~/models/project.server'
import { requireWorkspace } from '~/utils/auth.server'

export const meta: MetaFunction = () => [{ title: 'Projects · Storymap' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  return { workspaceName: ctx.workspace.name, projects: listProjects(ctx.workspace.id) }
}

export default function ProjectListPage() {
  const { workspaceName, projects } = useLoaderData<typeof loader>()
  return (
    <main className="page">
      <div className="row spread">
        <h1>Projects</h1>
      </div>
      <p className="muted">{`${projects.length} project(s)`}</p>
      {projects.length === 0 ? (
        <p className="empty">No projects</p>
      ) : (
        <ul className="project-list">
          {projects.map((p) => (
            <li key={p.id} className="project-row">
              <Link to={`/${workspaceName}/projects/${p.id}`} className="strong">
                {p.title}
              </Link>
              <span className="muted small">
                {`Created ${formatDate(p.createdAt)} by ${p.createdByName}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}
