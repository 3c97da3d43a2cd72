import type { PageCommand } from '~/features/board/page-commands'
import type { HistoryState } from '../../history-state'
import { lastShownOf } from '~/http/offline-loader'
import { liveVersionReached } from './live-version'

/**
 * After one's own edit a live board reloads nothing. The router revalidates a page's data after
 * every action, and the board's data is its whole map: on a 300-card board that reload was 13 ms
 * of the server's main thread for an edit that costs 1.5 ms (issue 34, docs/benchmarks.md). The
 * edit comes back by the live stream anyway (CONTRACT §6), so the reload that follows a board
 * command waits for that instead, and takes what else the data holds from the page already shown,
 * with the undo and redo state the command's answer carried. The edit's pending overlay lasts
 * until then, so the board never shows the card without its edit in between.
 *
 * Only card edits of the map: a change to the project itself (its title is the page's too), undo,
 * redo and the trash reload the data as before, and so does every reload when the stream is not
 * live, the edit does not come back within WAIT_MS, or anything else asked for the reload.
 */
type OwnEdit = { projectId: string; version: number; history: HistoryState; at: number }

const WAIT_MS = 3000
/** An edit whose data has not been reloaded within this long is forgotten (the next reload asks the server). */
const FRESH_MS = 10_000

let pending: OwnEdit | null = null

/** The answer of a board command that went through: remembered until the board's data has been reloaded. */
export function noteOwnEdit(projectId: string, command: PageCommand, answer: unknown, now = Date.now()) {
  pending = null
  if (!isMapEdit(command)) return
  const { version, history } = (answer ?? {}) as { version?: unknown; history?: unknown }
  if (typeof version === 'number' && isHistoryState(history))
    pending = { projectId, version, history, at: now }
}

/**
 * Whether the board's data still lags one's own edit (its undo state): a dialog closed right after
 * the edit cancels the reload that followed it, so the move that closes it reloads instead.
 */
export const ownEditPending = (projectId: string | undefined, now = Date.now()) =>
  freshEdit(projectId, now) !== null

/** A reload asked for by anything but one's own edit goes to the server. */
export function forgetOwnEdit() {
  pending = null
}

/**
 * The board's data: after one's own edit, without asking the server, once the live board shows
 * the edit: what the page showed, with the edit's undo and redo state. Otherwise (no such edit,
 * no live stream, the edit not back within WAIT_MS) from `fromServer`.
 */
export async function loadAfterOwnEdit<T>(
  projectId: string,
  shownKey: string,
  signal: AbortSignal,
  fromServer: () => Promise<T>,
  now = Date.now(),
): Promise<T> {
  const edit = freshEdit(projectId, now)
  const shown = lastShownOf(shownKey)
  if (edit && shown !== undefined && (await liveVersionReached(projectId, edit.version, WAIT_MS, signal))) {
    settled(edit)
    return { ...(shown as T), history: edit.history }
  }
  const data = await fromServer()
  // The server's data is at least as new as the edit. A cancelled reload never gets here.
  if (edit) settled(edit)
  return data
}

function freshEdit(projectId: string | undefined, now: number): OwnEdit | null {
  if (pending && now - pending.at > FRESH_MS) pending = null
  return pending && pending.projectId === projectId ? pending : null
}

function settled(edit: OwnEdit) {
  if (pending === edit) pending = null
}

function isMapEdit(command: PageCommand): boolean {
  if (/^(history|trash|project)\./.test(command.type) || command.type === 'feature.watch') return false
  return !('kind' in command && command.kind === 'project')
}

function isHistoryState(value: unknown): value is HistoryState {
  if (typeof value !== 'object' || value === null) return false
  const { undo, redo } = value as Record<string, unknown>
  return (undo === null || typeof undo === 'string') && (redo === null || typeof redo === 'string')
}
