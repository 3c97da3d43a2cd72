import { Link, Outlet, useSearchParams } from 'react-router'
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react'
import { useMessages } from '~/ui/messages'
import { boardAlerts } from '~/features/board/board-alerts'
import { BoardProvider, type BoardApi, type PersonaView } from '../../features/board/ui/board-context'
import { createCardExits } from '../../features/board/ui/card-exits'
import { OpenCardProvider } from '../../features/board/ui/card-tile'
import { usePreloadBoardParts } from '../../features/board/ui/board-parts'
import { ConnectionNotice } from '~/features/live/ui/connection-notice'
import { SessionNotice } from '~/features/live/ui/session-notice'
import { CopyButton } from '~/ui/copy-button'
import { ActivityPanel } from '~/features/history/ui/activity-panel'
import { HistoryControls, useDeleteToast, type HistoryState } from '~/features/history/ui/history-controls'
import { LivePresence } from '~/features/live/ui/live-presence'
import { TrashPanel } from '~/features/history/ui/trash-panel'
import { PersonaPanel } from '../../features/board/ui/persona-panel'
import { PrintPageStyle } from '../../features/board/ui/print-page-style'
import { BOARD_ID, StoryMap } from '../../features/board/ui/story-map'
import { exportMapPng } from '../../features/board/ui/export-png'
import { TagsDialog } from '../../features/board/ui/tags'
import { useBoardFilter } from '../../features/board/ui/use-board-filter'
import {
  FeatureIssue,
  GithubBoard,
  SendReleaseButton,
  TrackerBoard,
  TrackerFeatureIssue,
  TrackerSendRelease,
} from '~/features/trackers/ui'
import { WatchButton } from '~/features/notifications/ui/watch-button'
import { ProjectSharing } from '~/features/workspaces/ui/project-sharing'
import { SaveTemplateBoard } from '~/features/templates/ui'
import type { Feature } from '~/features/map/bundle-types'
import { CardDialogPartsProvider, type CardDialogParts } from '../../features/board/ui/card-dialog-parts'
import { useMapView, type ViewStore } from '../../features/board/ui/map-view'

type Props = Omit<
  BoardApi,
  | 'showClosed'
  | 'setShowClosed'
  | 'openPersonas'
  | 'linkSearch'
  | 'filter'
  | 'setFilter'
  | 'cardExits'
  | 'notify'
  | 'mapView'
> & {
  /** Where the member's folds and zoom are kept (the server; the browser on the public link). */
  viewStore: ViewStore
  /** The share link (absolute), when SPEC §6 allows one. */
  shareUrl: string | null
  csvUrl: string
  /** The member's undo and redo (project page); null on the public link, which has no history. */
  history: HistoryState | null
  /** The member may link, relink and unlink the GitHub repository (project page). */
  canLinkGithub?: boolean
  /** The member may save the map as a workspace template (OWNER, ADMIN; project page). */
  canSaveTemplate?: boolean
  /** The member may use the assistant (CONTRACT §16: configured, EDITOR and up, active plan). */
  assistant?: boolean
}

/** What the card dialog shows of other features on a member's board. */
const MEMBER_CARD_PARTS: CardDialogParts = {
  FeatureWatch: WatchButton,
  // GitHub's §13 controls, and the connector's for GitLab and Jira (§14): each shows only for its own link.
  FeatureIssue: (props) => (
    <>
      <FeatureIssue {...props} />
      <TrackerFeatureIssue {...props} />
    </>
  ),
  ReleaseIssues: (props) => (
    <>
      <SendReleaseButton {...props} />
      <TrackerSendRelease {...props} />
    </>
  ),
  ProjectSharing,
}
// Fetched when a feature's dialog first shows it: only members the assistant serves get it, and
// the board's own script stays within its budget.
const LazySuggest = lazy(() =>
  import('~/features/assistant/ui').then((parts) => ({ default: parts.FeatureSuggest })),
)
function FeatureSuggest(props: { feature: Feature }) {
  return (
    <Suspense fallback={null}>
      <LazySuggest {...props} />
    </Suspense>
  )
}
const ASSISTED_CARD_PARTS: CardDialogParts = { ...MEMBER_CARD_PARTS, FeatureSuggest }

/**
 * The board page (the project's and the public link's): the board of app/features/board put
 * together with the other features' parts: history's undo, activity and trash; the live
 * notices and presence; the GitHub dialog; watching, issues and sharing in the card dialog.
 */
export function ProjectView({
  shareUrl,
  csvUrl,
  history,
  canLinkGithub = false,
  canSaveTemplate = false,
  assistant = false,
  viewStore,
  ...props
}: Props) {
  const mapView = useMapView(viewStore)
  const commandsUrl = `${props.basePath}/commands`
  const { dispatch, toast, notify } = useDeleteToast(
    props.bundle,
    props.dispatch,
    history && !props.readOnly ? history : null,
    commandsUrl,
  )
  const [cardExits] = useState(createCardExits)
  const board = { ...props, dispatch, notify, cardExits }
  const [panel, setPanel] = useState<'activity' | 'trash' | null>(null)
  const closePanel = useCallback(() => setPanel(null), [])
  const [showClosed, setShowClosed] = useState(false)
  const [showingTags, setShowingTags] = useState(false)
  const [personaView, setPersonaView] = useState<PersonaView | null>(null)
  const [menuOpen, setMenuOpen] = useState(false)
  // `?github=1` (the link in the refused-token e-mail) opens the GitHub dialog.
  const [searchParams] = useSearchParams()
  const [showingGithub, setShowingGithub] = useState(() => searchParams.get('github') === '1')
  // `?tracker=1` (the link in a tracker's e-mail) opens the Tracker dialog (CONTRACT §14).
  const [showingTracker, setShowingTracker] = useState(() => searchParams.get('tracker') === '1')
  const [savingTemplate, setSavingTemplate] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const { push } = useMessages()
  useEffect(() => boardAlerts.subscribe((message, detail) => push('fail', message, detail)), [push])
  const closePersonas = useCallback(() => setPersonaView(null), [])
  const openPersonas = useCallback((view?: PersonaView) => setPersonaView(view ?? { page: 'all' }), [])
  // `search` from the route is the query card links keep (`?demo=1`); dialogs keep the whole page query.
  const { filter, setFilter, query, search } = useBoardFilter()
  const api: BoardApi = {
    ...board,
    mapView,
    search,
    linkSearch: board.search,
    filter,
    setFilter,
    showClosed,
    setShowClosed,
    openPersonas,
  }
  const { bundle, readOnly, mode, basePath } = board
  // The JSON export (CONTRACT §8) sits beside the CSV: `…/storymap.json`, named `<title>.storymap.json`.
  const jsonUrl = csvUrl.replace(/\.csv$/, '.json')
  usePreloadBoardParts()
  return (
    <BoardProvider value={api}>
      <main className="project-page">
        <PrintPageStyle title={bundle.project.title} />
        <div className="project-toolbar">
          <h1 className="project-title">{bundle.project.title}</h1>
          {readOnly || mode === 'demo' ? <span className="badge view-only">VIEW ONLY</span> : null}
          {mode === 'demo' ? <span className="badge demo">DEMO MODE</span> : null}
          {board.live ? <LivePresence live={board.live} me={board.me} /> : null}
          <div className="toolbar-actions">
            {shareUrl ? (
              <span className="share">
                <a href={shareUrl} target="_blank" rel="noreferrer">
                  Share link
                </a>
                <CopyButton text={shareUrl} label="Copy share link" />
              </span>
            ) : null}
            {history && !readOnly ? <HistoryControls commandsUrl={commandsUrl} state={history} /> : null}
            {history ? (
              <>
                <button type="button" className="button small" onClick={() => setPanel('activity')}>
                  Activity
                </button>
                <button type="button" className="button small" onClick={() => setPanel('trash')}>
                  Trash
                </button>
              </>
            ) : null}
            <button type="button" className="button small" onClick={() => setPersonaView({ page: 'all' })}>
              Personas
            </button>
            <label className="toggle">
              <input type="checkbox" checked={showClosed} onChange={(e) => setShowClosed(e.target.checked)} />{' '}
              Show closed
            </label>
            <div className="project-menu">
              <button
                type="button"
                className="button small"
                ref={menuButton}
                aria-label="Project menu"
                aria-haspopup="menu"
                aria-expanded={menuOpen}
                onClick={() => setMenuOpen(!menuOpen)}
              >
                <span aria-hidden="true">⋯</span>
              </button>
              {menuOpen ? (
                <div className="menu" role="menu">
                  <a
                    href={csvUrl}
                    download="storymap.csv"
                    className="menu-link"
                    role="menuitem"
                    onClick={() => setMenuOpen(false)}
                  >
                    Export CSV
                  </a>
                  <a
                    href={jsonUrl}
                    download
                    className="menu-link"
                    role="menuitem"
                    onClick={() => setMenuOpen(false)}
                  >
                    Export JSON
                  </a>
                  <MenuButton
                    label="Tags"
                    onChoose={() => setShowingTags(true)}
                    close={() => setMenuOpen(false)}
                  />
                  {history && mode !== 'demo' ? (
                    <MenuButton
                      label="GitHub"
                      onChoose={() => setShowingGithub(true)}
                      close={() => setMenuOpen(false)}
                    />
                  ) : null}
                  {history && mode !== 'demo' ? (
                    <MenuButton
                      label="Tracker"
                      onChoose={() => setShowingTracker(true)}
                      close={() => setMenuOpen(false)}
                    />
                  ) : null}
                  {history && mode !== 'demo' && canSaveTemplate ? (
                    <MenuButton
                      label="Save as template"
                      onChoose={() => setSavingTemplate(true)}
                      close={() => setMenuOpen(false)}
                    />
                  ) : null}
                  <MenuButton
                    label="Collapse all"
                    onChoose={() =>
                      mapView.foldAll(
                        true,
                        bundle.workflows.map((w) => w.id),
                        bundle.milestones.map((m) => m.id),
                      )
                    }
                    close={() => setMenuOpen(false)}
                  />
                  <MenuButton
                    label="Expand all"
                    onChoose={() => mapView.foldAll(false, [], [])}
                    close={() => setMenuOpen(false)}
                  />
                  <MenuButton
                    label="Export PNG"
                    onChoose={() => {
                      const map = document.getElementById(BOARD_ID)
                      if (!map) return
                      exportMapPng(map, bundle.project.title).catch(() =>
                        push('fail', 'The picture of the map could not be made.'),
                      )
                    }}
                    close={() => setMenuOpen(false)}
                  />
                  <MenuButton
                    label="Print"
                    onChoose={() => window.print()}
                    close={() => setMenuOpen(false)}
                  />
                </div>
              ) : null}
            </div>
            <Link
              to={`${basePath}/p/${bundle.project.id}${search}`}
              className="icon-button"
              aria-label="Project settings"
              preventScrollReset
            >
              <span aria-hidden="true">⚙</span>
            </Link>
          </div>
        </div>
        {mode === 'demo' ? null : <ConnectionNotice editable={!readOnly} />}
        {history && mode !== 'demo' ? <SessionNotice me={board.me} /> : null}
        {history ? (
          <GithubBoard
            open={showingGithub}
            setOpen={setShowingGithub}
            returnFocus={menuButton}
            canLink={canLinkGithub}
          />
        ) : null}
        {history ? (
          <TrackerBoard open={showingTracker} setOpen={setShowingTracker} returnFocus={menuButton} />
        ) : null}
        {history && canSaveTemplate ? (
          <SaveTemplateBoard open={savingTemplate} setOpen={setSavingTemplate} returnFocus={menuButton} />
        ) : null}
        <OpenCardProvider query={query}>
          <StoryMap />
        </OpenCardProvider>
        {personaView ? (
          <PersonaPanel view={personaView} onNavigate={setPersonaView} onClose={closePersonas} />
        ) : null}
        {panel === 'activity' ? <ActivityPanel onClose={closePanel} /> : null}
        {panel === 'trash' ? (
          <TrashPanel
            projectId={bundle.project.id}
            workspaceId={bundle.project.workspaceId}
            commandsUrl={commandsUrl}
            canEdit={!readOnly}
            onClose={closePanel}
          />
        ) : null}
        {showingTags ? <TagsDialog onClose={() => setShowingTags(false)} /> : null}
        {toast}
        <CardDialogPartsProvider value={history ? (assistant ? ASSISTED_CARD_PARTS : MEMBER_CARD_PARTS) : {}}>
          <Outlet />
        </CardDialogPartsProvider>
      </main>
    </BoardProvider>
  )
}

/** An item of the board menu that closes the menu, then does its thing. */
function MenuButton({ label, onChoose, close }: { label: string; onChoose: () => void; close: () => void }) {
  return (
    <button
      type="button"
      className="menu-button"
      role="menuitem"
      onClick={() => {
        close()
        onChoose()
      }}
    >
      {label}
    </button>
  )
}
