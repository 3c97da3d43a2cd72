import { useActionData, useFetcher, useRouteLoaderData } from 'react-router'
import { wantBoardReload } from '~/features/board/ui'
import type { SharingReply, SharingView } from '~/features/workspaces/sharing-intents'

/** What the member's board route loads about sharing (app/routes/$workspace.projects.$projectId.tsx). */
type BoardSharingData = { projectId: string; sharing?: SharingView }

const BLOCKED_TEXT = {
  workspace: 'External sharing is off for this workspace.',
  plan: 'The share link needs an active plan.',
} as const

/**
 * The project card's Sharing section (CONTRACT §8): whether the share link works, and for ADMINs
 * and OWNERs `Stop sharing` / `Share again` and `New link`. Only on a member's board: the
 * public link and demo mode have no board loader data, so nothing shows there.
 */
export function ProjectSharing({ projectId, basePath }: { projectId: string; basePath: string }) {
  const board = useRouteLoaderData('routes/$workspace.projects.$projectId') as BoardSharingData | undefined
  const fetcher = useFetcher<SharingReply>()
  // Without JavaScript the form posts to the dialog's route, whose answer is the action data.
  const posted = useActionData<SharingReply>()
  const result = fetcher.data ?? posted
  if (!board?.sharing || board.projectId !== projectId) return null
  const { enabled, blockedBy, canManage } = board.sharing
  // Never disabled while sending: the focused button stays focused (repeating one is harmless).
  const button = (intent: string, label: string) => (
    <button type="submit" name="intent" value={intent} className="button small">
      {label}
    </button>
  )
  return (
    <section className="project-sharing" aria-label="Sharing">
      <h3 className="small">Sharing</h3>
      {blockedBy ? (
        <p className="small">{BLOCKED_TEXT[blockedBy]}</p>
      ) : (
        <>
          <p className="small">
            {enabled ? 'Anyone with the share link can view this project.' : 'This project is not shared.'}
          </p>
          {canManage ? (
            <fetcher.Form
              method="post"
              action={`${basePath}/p/${projectId}`}
              className="row"
              onSubmit={wantBoardReload}
            >
              {enabled ? button('stopSharing', 'Stop sharing') : button('shareAgain', 'Share again')}
              {button('newLink', 'New link')}
            </fetcher.Form>
          ) : (
            <p className="small muted">Only an admin or owner can change sharing.</p>
          )}
        </>
      )}
      {result && !result.ok ? (
        <p className="errors small" role="alert">
          {result.message}
        </p>
      ) : null}
      <p className="small muted" role="status">
        {result?.ok ? result.message : ''}
      </p>
    </section>
  )
}
