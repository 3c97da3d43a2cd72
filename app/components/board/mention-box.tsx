import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { filterMembers, insertMention, mentionQueryAt, splitMentions } from '~/domain/mentions'
import { useBoard } from './board-context'

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
 */
export function MentionBox({
  id,
  value,
  onChange,
  placeholder,
}: {
  id: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
}) {
  const { members = [] } = useBoard()
  const listId = useId()
  const ref = useRef<HTMLTextAreaElement>(null)
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null)
  const [active, setActive] = useState(0)
  const options = query ? filterMembers(members, query.query) : []
  const open = query !== null && options.length > 0
  const optionId = (i: number) => `${listId}-option-${i}`

  const look = (text: string, caret: number) => {
    const found = mentionQueryAt(text, caret)
    setQuery(found)
    if (found?.query !== query?.query) setActive(0)
  }
  const pick = (memberId: string) => {
    if (!query) return
    const caret = ref.current?.selectionStart ?? value.length
    const next = insertMention(value, query.start, caret, memberId)
    onChange(next.text)
    setQuery(null)
    requestAnimationFrame(() => ref.current?.setSelectionRange(next.caret, next.caret))
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!open) return
    if (e.key === 'ArrowDown') {
      e.preventDefault()
      setActive((active + 1) % options.length)
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((active - 1 + options.length) % options.length)
    } else if (e.key === 'Enter') {
      e.preventDefault()
      pick(options[Math.min(active, options.length - 1)].id)
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
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? optionId(Math.min(active, options.length - 1)) : undefined}
        onChange={(e) => (onChange(e.target.value), look(e.target.value, e.target.selectionStart))}
        onKeyDown={onKeyDown}
        onClick={(e) => look(value, e.currentTarget.selectionStart)}
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
                onMouseDown={(e) => (e.preventDefault(), pick(m.id))}
              >
                {m.name}
              </li>
            ))
          : null}
      </ul>
    </div>
  )
}
