import { useId, useRef, useState, type KeyboardEvent } from 'react'
import {
  draftFromStored,
  editDraft,
  mentionQueryInDraft,
  pickMention,
  removeMentionAt,
  storedFromDraft,
  type MentionDraft,
} from '~/features/board/mention-draft'
import { filterMembers, splitMentions } from '~/features/map/mentions'
import { useBrowserLayoutEffect } from '~/ui/use-browser-layout-effect'
import { useBoard, type BoardMember } from '~/features/board/ui/board-context'
import { useUnsavedDraft } from '~/features/board/ui/unsaved-drafts'

/** A comment's text with every `@[member:…]` shown as `@Name` (the member's current name). */
export function CommentText({ post }: { post: string }) {
  const { members = [] } = useBoard()
  const parts = splitMentions(post, (id) => members.find((m) => m.id === id)?.name)
  return (
    <p className="comment-post">
      {parts.map((p, i) =>
        'text' in p ? (
          p.text
        ) : (
          <span key={i} className="mention">
            @{p.name}
          </span>
        ),
      )}
    </p>
  )
}

/**
 * The comment box (CONTRACT §12): typing `@` opens a list of the workspace's members, filtered as
 * one types; ArrowUp / ArrowDown move, Enter picks, Escape closes. The ARIA combobox pattern: the
 * textarea is the combobox, the list a listbox, the active option named by aria-activedescendant.
 * `value` and `onChange` carry the stored text (`@[member:…]`); the box shows `@Name`, and
 * Backspace or Delete next to a mention removes it whole.
 */
export function MentionBox({
  id,
  value,
  savedValue = '',
  onChange,
  placeholder,
}: {
  id: string
  value: string
  /** The comment's saved text (empty for a new one): anything else in the box is unsaved. */
  savedValue?: string
  onChange: (value: string) => void
  placeholder?: string
}) {
  const { members = [] } = useBoard()
  const nameOf = (memberId: string) => members.find((m) => m.id === memberId)?.name
  const listId = useId()
  const ref = useRef<HTMLTextAreaElement>(null)
  const [draft, setDraft] = useState(() => draftFromStored(value, nameOf))
  // The stored text the draft stands for; when the parent puts other text in (a comment posted,
  // an edit cancelled), the box shows that.
  const [drafted, setDrafted] = useState(value)
  if (value !== drafted) {
    setDrafted(value)
    setDraft(draftFromStored(value, nameOf))
  }
  useUnsavedDraft(value !== savedValue && draft.text, 'comment')
  // Where the caret goes once React has put in text the browser did not type itself.
  const caretAfterRender = useRef<number | null>(null)
  useBrowserLayoutEffect(() => {
    if (caretAfterRender.current === null) return
    ref.current?.setSelectionRange(caretAfterRender.current, caretAfterRender.current)
    caretAfterRender.current = null
  })
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null)
  const [active, setActive] = useState(0)
  const options = query ? filterMembers(members, query.query) : []
  const open = query !== null && options.length > 0
  const optionId = (i: number) => `${listId}-option-${i}`

  const look = (shown: MentionDraft, caret: number) => {
    const found = mentionQueryInDraft(shown, caret)
    setQuery(found)
    if (found?.query !== query?.query) setActive(0)
  }
  const update = (next: MentionDraft, caret: number, moveCaret: boolean) => {
    const stored = storedFromDraft(next)
    setDraft(next)
    setDrafted(stored)
    onChange(stored)
    if (moveCaret) caretAfterRender.current = caret
    look(next, caret)
  }
  const pick = (member: BoardMember) => {
    if (!query) return
    const picked = pickMention(draft, query.start, ref.current?.selectionStart ?? draft.text.length, member)
    update(picked.draft, picked.caret, true)
    setQuery(null)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const { selectionStart: caret, selectionEnd } = e.currentTarget
    const side = e.key === 'Backspace' ? 'backward' : e.key === 'Delete' ? 'forward' : null
    const removed = side && caret === selectionEnd && !e.metaKey ? removeMentionAt(draft, caret, side) : null
    if (removed) {
      e.preventDefault()
      return update(removed.draft, removed.caret, true)
    }
    if (!open) return
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setActive((active + 1) % options.length)
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((active - 1 + options.length) % options.length)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      pick(options[Math.min(active, options.length - 1)])
    } else if (e.key === 'Escape') {
      e.preventDefault()
      // Closes the list, not the dialog: React listens on the document, as the dialog does.
      e.nativeEvent.stopImmediatePropagation()
      setQuery(null)
    }
  }
  return (
    <div className="mention-box">
      <textarea
        ref={ref}
        id={id}
        rows={3}
        placeholder={placeholder}
        value={draft.text}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? optionId(Math.min(active, options.length - 1)) : undefined}
        onChange={(e) => {
          const box = e.currentTarget
          const edited = editDraft(draft, box.value, box.selectionStart, nameOf)
          update(edited.draft, edited.caret, edited.draft.text !== box.value)
        }}
        onKeyDown={onKeyDown}
        onClick={(e) => look(draft, e.currentTarget.selectionStart)}
        onBlur={() => setQuery(null)}
      />
      <ul id={listId} role="listbox" aria-label="Members" className="mention-list" hidden={!open}>
        {open
          ? options.map((m, i) => (
              <li
                key={m.id}
                id={optionId(i)}
                role="option"
                aria-selected={i === Math.min(active, options.length - 1)}
                className={i === active ? 'active' : undefined}
                onMouseDown={(e) => (e.preventDefault(), pick(m))}
              >
                {m.name}
              </li>
            ))
          : null}
      </ul>
    </div>
  )
}
