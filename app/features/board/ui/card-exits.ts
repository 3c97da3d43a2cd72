/** How a card leaves the board from its dialog. */
export type CardExit = 'delete' | 'close'

/**
 * A card's dialog tells the board that the card is about to leave it (deleted, or closed), before
 * the change: the board, which knows what it shows, then gives the focus to a card beside it once
 * the dialog has closed, instead of leaving it on the page's body.
 */
export type CardExits = {
  /** The board's handler; returns the unregister. */
  register: (handler: (id: string, how: CardExit) => void) => () => void
  leaving: (id: string, how: CardExit) => void
}

export function createCardExits(): CardExits {
  let handler: ((id: string, how: CardExit) => void) | null = null
  return {
    register(next) {
      handler = next
      return () => {
        if (handler === next) handler = null
      }
    },
    leaving: (id, how) => handler?.(id, how),
  }
}
