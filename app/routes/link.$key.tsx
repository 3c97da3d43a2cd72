import type { Route } from './+types/link.$key'
import { data } from 'react-router'
import {
  isRouteErrorResponse,
  Link,
  useLoaderData,
  useRouteError,
  useSearchParams,
  type ShouldRevalidateFunction,
} from 'react-router'
import { useBundleText, useDemoBoard } from '~/features/board/ui/board-context'
import { ProjectView } from '~/pages/board/project-page'
import { browserViewStore } from '~/features/board/ui/map-view'
import { BOARD_ID } from '~/features/board/ui/story-map'
import type { SkipLinkHandle } from '~/ui/skip-link'
import { PageMap } from '~/features/board/ui/page-map'
import { useLiveBoard } from '~/features/board/ui/live/use-live-board'
import type { BoardCommand } from '~/features/board/board-commands'
import { DomainError } from '~/lib/errors'
import { mentionedIds } from '~/features/map/mentions'
import { workspaceMemberNames } from '~/features/notifications/notifications.server'
import { getPublicBundleForPage } from '~/features/map/project-bundle.server'
import { packBundleBytes, withBundleForRender } from '~/features/map/bundle-text'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { getEnv } from '~/lib/env.server'

/** The page's skip link goes to the board (app/ui/skip-link.tsx). */
export const handle: SkipLinkHandle = { skipLink: { target: BOARD_ID, label: 'Skip to board' } }

export const meta = ({ data }: Route.MetaArgs) => [
  { title: data ? `${data.title} · Storymap` : 'Project not found · Storymap' },
  { name: 'robots', content: 'noindex' },
]

export async function loader({ params, context }: Route.LoaderArgs) {
  try {
    const { bytes, text } = getPublicBundleForPage(params.key ?? '')
    const bundle = JSON.parse(text) as ProjectBundle
    // Only the members its comments mention: a public map shows them as @Name and lists nobody else.
    const mentioned = [...new Set(bundle.featureComments.flatMap((c) => mentionedIds(c.post)))]
    const members = mentioned.length ? workspaceMemberNames(bundle.project.workspaceId, mentioned) : []
    // The map as JSON text, parsed once in the page (useBundleText), not encoded card by card; a
    // whole page carries it by itself (<PageMap>).
    const bundleText = context.wholePage ? null : packBundleBytes(bytes)
    const answer = { bundleText, title: bundle.project.title, members, baseUrl: getEnv().BASE_URL }
    return withBundleForRender(answer, () => bundle, text)
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found')
      throw data('Project not found.', { status: 404 })
    throw error
  }
}

/**
 * The public map is loaded once per key (live changes arrive by its stream); moving between its
 * dialogs (and demo edits) sends nothing. An explicit revalidation (after a reset) reloads it.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  currentParams,
  nextParams,
  currentUrl,
  nextUrl,
}) => currentParams.key !== nextParams.key || currentUrl.href === nextUrl.href

const noop = (_command: BoardCommand) => {}

/** The public, read-only story map; with ?demo=1 every edit works locally and nothing is sent. */
export default function PublicProjectPage() {
  const answer = useLoaderData<typeof loader>()
  const { members, baseUrl } = answer
  const loaded = useBundleText(answer)
  const [searchParams] = useSearchParams()
  const demo = searchParams.get('demo') === '1'
  const me = { memberId: 'demo', name: 'Demo user' }
  const local = useDemoBoard(loaded, me)
  const basePath = `/link/${loaded.project.externalLink}`
  // Demo mode stays fully local: no stream.
  const { bundle: liveBundle, ...live } = useLiveBoard(
    loaded,
    demo ? null : `/v1/link/${loaded.project.externalLink}/events`,
  )
  return (
    <div className="public-shell">
      <header className="app-header">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Storymap
        </Link>
      </header>
      <ProjectView
        key={loaded.project.id}
        bundle={demo ? local.bundle : liveBundle}
        live={demo ? null : live}
        history={null}
        dispatch={demo ? local.dispatch : noop}
        mode={demo ? 'demo' : 'readonly'}
        readOnly={!demo}
        me={me}
        members={members}
        basePath={basePath}
        baseUrl={baseUrl}
        search={demo ? '?demo=1' : ''}
        shareUrl={null}
        csvUrl={`${basePath}/storymap.csv`}
        viewStore={browserViewStore(loaded.project.externalLink)}
      />
      <PageMap answer={answer} />
    </div>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  return (
    <main className="page-center">
      <div className="card narrow">
        <h1>
          {isRouteErrorResponse(error) && error.status === 404
            ? 'Project not found.'
            : 'Something went wrong'}
        </h1>
        <Link to="/" className="button">
          Home
        </Link>
      </div>
    </main>
  )
}
