import { useEffect, useRef, useState } from 'react'

/**
 * Text typed into a board's edit control and not saved yet, by control. When the member loses
 * the right to edit while typing (CONTRACT §6 `event: access`), or a colleague deletes the card
 * being edited, the edit controls go at once; what was being typed must not go silently with
 * them: the board says so, with the text.
 */
export type UnsavedDraft = { field: DraftField; text: string }
/** Which control holds a draft: a card's title or description, a comment, a new card's title. */
export type DraftField = 'title' | 'description' | 'comment' | 'new card'

const drafts = new Map<object, UnsavedDraft>()

/** Registers `text` as this control's unsaved draft while it is a non-empty string. */
export function useUnsavedDraft(text: string | null | false, field: DraftField) {
  const key = useRef({}).current
  useEffect(() => {
    if (text && text.trim()) drafts.set(key, { field, text: text.trim() })
    else drafts.delete(key)
  }, [key, text, field])
  useEffect(() => () => void drafts.delete(key), [key])
}

export function unsavedDrafts(): string[] {
  return [...drafts.values()].map((d) => d.text)
}

/** The drafts with the control each is in (read while rendering a change, before those controls unmount). */
export function unsavedDraftsByField(): UnsavedDraft[] {
  return [...drafts.values()]
}

/**
 * Calls `notify` with the drafts that were open when `readOnly` turned true. They are read while
 * rendering the change, before the controls holding them unmount.
 */
export function useDraftsLostOnReadOnly(readOnly: boolean, notify: (lost: string[]) => void) {
  const [previous, setPrevious] = useState(readOnly)
  const [lost, setLost] = useState<string[]>([])
  if (previous !== readOnly) {
    setPrevious(readOnly)
    if (readOnly) setLost(unsavedDrafts())
  }
  const notifyRef = useRef(notify)
  notifyRef.current = notify
  useEffect(() => {
    if (lost.length === 0) return
    notifyRef.current(lost)
    setLost([])
  }, [lost])
}
