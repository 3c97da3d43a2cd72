/** What the member's undo and redo would do on this board: their activity lines, or null for none. */
export type HistoryState = { undo: string | null; redo: string | null }
