import type { MapViewApi } from './map-view'
import { useFetchers, useSubmit } from 'react-router'
import { createContext, useCallback, useContext, useMemo, useReducer, useRef, type ReactNode } from 'react'
import type { BoardCommand } from '~/features/board/board-commands'
import type { BoardFilter } from '~/features/board/board-filter'
import type { SetFilter } from './use-board-filter'
import { applyCommand, type EditMeta } from '~/features/board/board-reducer'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { shareUnchangedEntities } from '~/features/map/bundle-identity'
import { bundleOfPage } from '~/features/map/bundle-text'
import type { LiveBoard } from '~/features/board/ui/live/use-live-board'
import type { CardExits } from './card-exits'

export type BoardMember = { id: string; name: string }

export type BoardMode = 'edit' | 'readonly' | 'demo'

export type BoardApi = {
  bundle: ProjectBundle
  /** The member's folds and zoom (CONTRACT §15; map-view.ts). */
  mapView: MapViewApi
  dispatch: (command: BoardCommand) => void
  mode: BoardMode
  /** True when nothing may be changed (view only, public link). Demo mode is editable. */
  readOnly: boolean
  me: { memberId: string; name: string }
  /** The workspace's members, for mentions in comments (CONTRACT §12); a public link knows only the mentioned ones. */
  members?: readonly BoardMember[]
  /** Path of the board; card dialogs live under it (`${basePath}/f/{id}`). */
  basePath: string
  /** The public address (BASE_URL), for permalinks. */
  baseUrl: string
  /** Query string kept when dialogs open and close: the page's (e.g. `?demo=1&q=pay`). */
  search: string
  /** Query string on card links: `search` without the search and filters, so links stay the same while typing. */
  linkSearch: string
  /** The search and filters (CONTRACT §9), read from the URL query; `setFilter` writes it there. */
  filter: BoardFilter
  setFilter: SetFilter
  showClosed: boolean
  setShowClosed: (value: boolean) => void
  /** Opens the persona panel: the list, one persona, or the create form (optionally for a goal). */
  openPersonas: (view?: PersonaView) => void
  /** Everyone else's edits arriving (CONTRACT §6); null in demo mode. */
  live: LiveInfo | null
  /** A card about to leave the board from its dialog: the board then focuses one beside it. */
  cardExits?: CardExits
  /** Says something in the board's live region (with Undo where the page has history). */
  notify?: (notice: BoardNotice) => void
}

/** A change a dialog made, read out; `stillTrue` tells when an Undo offered with it has nothing left to undo. */
export type BoardNotice = { text: string; stillTrue: (bundle: ProjectBundle) => boolean }

export type LiveInfo = Omit<LiveBoard, 'bundle'>

export type PersonaView =
  | { page: 'all' }
  | { page: 'persona'; personaId: string; editing?: boolean }
  | { page: 'create'; workflowId?: string }
  /** A goal's `+`: the project's personas not on that goal yet, then `New persona`. */
  | { page: 'add'; workflowId: string }

const BoardContext = createContext<BoardApi | null>(null)

export function useBoard(): BoardApi {
  const api = useContext(BoardContext)
  if (!api) throw new Error('useBoard outside <BoardProvider>')
  return api
}

export function BoardProvider({ value, children }: { value: BoardApi; children: ReactNode }) {
  return <BoardContext.Provider value={value}>{children}</BoardContext.Provider>
}

const meta = (me: { memberId: string; name: string }): EditMeta => ({ ...me, now: new Date().toISOString() })

/** The map a page's loader sent as text, or left to the page (bundle-text.ts), parsed once per text. */
export function useBundleText(answer: { bundleText: string | null }): ProjectBundle {
  const text = answer.bundleText
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new answer with the same text is the same map
  return useMemo(() => bundleOfPage(answer), [text])
}

/**
 * Server-backed board state: loader data with every pending command laid over it. Each command
 * is its own fetcher (keyed by a fresh id), so concurrent edits never cancel one another; a
 * fetcher's overlay lasts until the revalidated loader data carries the server's copy.
 */
export function useServerBoard(
  freshBundle: ProjectBundle,
  action: string,
  me: { memberId: string; name: string },
) {
  const submit = useSubmit()
  const fetchers = useFetchers()
  const pending = fetchers.filter((f) => f.formAction === action && f.json !== undefined)
  // Reloaded data keeps the objects of unchanged cards, so the board re-renders only what changed.
  const lastLoaded = useRef<ProjectBundle | undefined>(undefined)
  const loaderBundle = useMemo(
    () => (lastLoaded.current = shareUnchangedEntities(lastLoaded.current, freshBundle)),
    [freshBundle],
  )
  const bundle = useMemo(
    () =>
      pending.reduce((b, f) => applyCommand(b, f.json as unknown as BoardCommand, meta(me)), loaderBundle),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [loaderBundle, pending.map((f) => f.key).join(','), me.memberId],
  )
  const dispatch = useCallback(
    (command: BoardCommand) => {
      submit(command as never, {
        method: 'post',
        action,
        encType: 'application/json',
        navigate: false,
        fetcherKey: `board-${crypto.getRandomValues(new Uint32Array(2)).join('-')}`,
        preventScrollReset: true,
        // The edit shows in the same task, not in a later transition: a dropped card lands at
        // once (the drag library needs its new place synchronously) and typing never lags.
        flushSync: true,
      })
    },
    [submit, action],
  )
  return { bundle, dispatch }
}

/** Demo mode: the same commands applied to local state only; nothing is sent. */
export function useDemoBoard(initial: ProjectBundle, me: { memberId: string; name: string }) {
  const [bundle, dispatchLocal] = useReducer(
    (state: ProjectBundle, command: BoardCommand) => applyCommand(state, command, meta(me)),
    initial,
  )
  return { bundle, dispatch: dispatchLocal }
}
