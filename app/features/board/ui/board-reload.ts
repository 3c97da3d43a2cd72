import { forgetOwnEdit } from '~/features/board/ui/live/own-edits'

/**
 * A change the board's loader data carries (the share link) but no change event does. Its own
 * reload after the action is cancelled when the dialog closes at once, and the board's
 * shouldRevalidate skips dialog moves, so the change keeps asking for a reload of the board until
 * its loader data has come. (shouldRevalidate is asked more than once per move: it must not
 * change anything itself.)
 */
let wanted = false

export function wantBoardReload() {
  wanted = true
  forgetOwnEdit()
}

export const boardReloadWanted = () => wanted

/** The board's loader data has come. */
export function boardReloaded() {
  wanted = false
}
