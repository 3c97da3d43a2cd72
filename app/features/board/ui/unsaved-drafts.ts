import { useEffect, useRef, useState } from 'react'

/**
 * Text typed into a board's edit control and not saved yet, by control. When the member loses
 * the right to edit while typing (CONTRACT §6 `event: access`), the edit controls go at once;
 * what was being typed must not go silently with them: the board says so, with the text.
 */
const drafts = new Map<object, string>()

/** Registers `text` as this control's unsaved draft while it is a non-empty string. */
export function useUnsavedDraft(text: string | null | false) {
  const key = useRef({}).current
  useEffect(() => {
    if (text && text.trim()) drafts.set(key, text.trim())
    else drafts.delete(key)
  }, [key, text])
  useEffect(() => () => void drafts.delete(key), [key])
}

export function unsavedDrafts(): string[] {
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
