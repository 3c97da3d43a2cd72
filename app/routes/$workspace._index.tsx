import type { Route } from './+types/$workspace._index'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type MetaFunction } from 'react-router'
import {
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useRevalidator,
  useSearchParams,
} from 'react-router'
import { DuplicateProjectDialog, ProjectRowMenu } from '~/features/transfer/ui/duplicate-project'
import { ImportProjectDialog } from '~/features/transfer/ui/import-project-dialog'
import { Modal } from '~/ui/modal'
import { TrashList } from '~/features/history/ui/trash-list'
import { countOf } from '~/lib/counts'
import { formatDate } from '~/lib/dates'
import { DomainError } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import { duplicateProjectSchema } from '~/lib/validation'
import { newProjectSchema } from '~/features/templates'
import { createProjectFromTemplate, listTemplateChoices } from '~/features/templates/index.server'
import { NewProjectDialog } from '~/features/templates/ui'
import { DraftMapPanel } from '~/features/assistant/ui'
import { assistantAvailableTo } from '~/features/assistant/index.server'
import { getEnv } from '~/lib/env.server'
import { executeBoardCommand } from '~/features/board/board.server'
import { duplicateProject } from '~/features/transfer/import.server'
import { listProjects } from '~/features/map/project.server'
import { requireWorkspace } from '~/http/auth.server'

export const meta: MetaFunction = () => [{ title: 'Projects · Storymap' }]

export async function loader({ request, params }: Route.LoaderArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  return {
    workspaceId: ctx.workspace.id,
    workspaceName: ctx.workspace.name,
    projects: listProjects(ctx.workspace.id),
    canEdit: can(ctx, 'edit'),
    assistant: assistantAvailableTo(ctx, getEnv()),
    // `New project`'s choices (CONTRACT §16), read only while the dialog is open.
    templates:
      can(ctx, 'edit') && new URL(request.url).searchParams.get('new') === '1'
        ? listTemplateChoices(ctx)
        : [],
  }
}

export async function action({ request, params }: Route.ActionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const formData = await request.formData()
  if (formData.get('intent') === 'duplicate') return duplicate(ctx, formData)
  const submission = parseWithZod(formData, { schema: newProjectSchema })
  if (submission.status !== 'success') return submission.reply()
  try {
    const { title, templateId } = submission.value
    const id = crypto.randomUUID()
    // Blank, or a template's map written like an import (one change, undoable).
    if (templateId) createProjectFromTemplate(ctx, { id, title, templateId })
    else executeBoardCommand(ctx, { type: 'project.create', id, title })
    // A map from a template: its board's first card takes the focus (`#board`).
    throw redirect(`/${ctx.workspace.name}/projects/${id}${templateId ? '#board' : ''}`)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const field =
      error.code === 'title_invalid' ? 'title' : error.code === 'template_not_found' ? 'templateId' : null
    const message = error.code === 'title_invalid' ? 'Title is invalid.' : error.message
    return submission.reply(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] })
  }
}

/** The Duplicate dialog's action: a full copy of the project, then its board. */
function duplicate(ctx: Parameters<typeof duplicateProject>[0], formData: FormData) {
  const submission = parseWithZod(formData, { schema: duplicateProjectSchema })
  if (submission.status !== 'success') return submission.reply()
  try {
    const { projectId, title } = submission.value
    const copy = duplicateProject(ctx, projectId, { id: crypto.randomUUID(), title })
    throw redirect(`/${ctx.workspace.name}/projects/${copy.id}`)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return submission.reply({ formErrors: [error.message] })
  }
}

export default function ProjectListPage() {
  const { workspaceId, workspaceName, projects, canEdit, templates, assistant } =
    useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  const lastResult = useActionData<typeof action>()
  const closeDialog = () => navigate(`/${workspaceName}`)
  const duplicating = canEdit ? projects.find((p) => p.id === searchParams.get('duplicate')) : undefined
  const revalidator = useRevalidator()
  return (
    <main className="page">
      <div className="row spread">
        <h1>Projects</h1>
        <div className="row">
          <Link className="button" to="?trash=1">
            Trash
          </Link>
          {canEdit ? (
            <>
              <Link className="button" to="?import=1">
                Import project
              </Link>
              <Link className="button primary" to="?new=1">
                New project
              </Link>
            </>
          ) : null}
        </div>
      </div>
      <p className="muted">{countOf(projects.length, 'project')}</p>
      {projects.length === 0 ? (
        <div className="empty">
          <p>No projects</p>
          {canEdit ? (
            <p className="muted">
              Start a story map with <strong>New project</strong>, or bring one in from a CSV or JSON file
              with <strong>Import project</strong>.
            </p>
          ) : (
            <p className="muted">An editor of this workspace can start one.</p>
          )}
        </div>
      ) : (
        <ul className="project-list">
          {projects.map((p) => (
            <li key={p.id} className="project-row">
              <Link to={`/${workspaceName}/projects/${p.id}`} className="strong">
                {p.title}
              </Link>
              <span className="row">
                <span className="muted small">{`Created ${formatDate(p.createdAt)} by ${p.createdByName}`}</span>
                {canEdit ? <ProjectRowMenu project={p} /> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
      {canEdit && searchParams.get('new') === '1' ? (
        <NewProjectDialog
          workspaceName={workspaceName}
          templates={templates}
          lastResult={lastResult}
          draftMap={
            assistant
              ? (back) => (
                  <DraftMapPanel workspaceId={workspaceId} workspaceName={workspaceName} onBack={back} />
                )
              : undefined
          }
        />
      ) : null}
      {canEdit && searchParams.get('import') === '1' ? (
        <ImportProjectDialog workspaceId={workspaceId} workspaceName={workspaceName} onClose={closeDialog} />
      ) : null}
      {searchParams.get('trash') === '1' ? (
        <Modal title="Trash" onClose={closeDialog}>
          <TrashList
            listPath="/v1/trash"
            workspaceId={workspaceId}
            commandsUrl={`/${workspaceName}/commands`}
            canEdit={canEdit}
            onRestored={() => revalidator.revalidate()}
          />
        </Modal>
      ) : null}
      {duplicating ? (
        <DuplicateProjectDialog
          key={duplicating.id}
          project={duplicating}
          lastResult={lastResult}
          onClose={closeDialog}
        />
      ) : null}
    </main>
  )
}
