import { useState, type FormEvent } from 'react'
import { COMMENT_MAX } from '~/features/map/vocabulary'
import { formatDateTime } from '~/lib/dates'
import { newId } from '~/lib/uuid'
import { useBoard } from './board-context'
import { CommentText, MentionBox } from '~/features/board/ui/mention-box'

function commentError(text: string): string | null {
  if (text.trim().length === 0) return 'Please write a comment.'
  if (text.length > COMMENT_MAX) return `Maximum ${COMMENT_MAX} characters.`
  return null
}

/** A feature's DISCUSSION: newest first; members edit and delete only their own comments. */
export function Discussion({ featureId }: { featureId: string }) {
  const { bundle, dispatch, readOnly, me } = useBoard()
  const comments = bundle.featureComments
    .filter((c) => c.featureId === featureId)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
  const [post, setPost] = useState('')
  const [error, setError] = useState<string | null>(null)

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const problem = commentError(post)
    if (problem) return setError(problem)
    dispatch({ type: 'comment.create', id: newId(), featureId, post })
    setPost('')
    setError(null)
  }

  return (
    <section className="discussion" aria-labelledby="discussion-heading">
      <h3 id="discussion-heading">DISCUSSION</h3>
      {!readOnly ? (
        <form onSubmit={onSubmit} noValidate className="comment-form">
          <label htmlFor="new-comment" className="sr-only">
            Write a comment
          </label>
          <MentionBox
            id="new-comment"
            placeholder="Write a comment…"
            value={post}
            onChange={(value) => (setPost(value), setError(null))}
          />
          {error ? (
            <div className="errors" role="alert">
              <p>{error}</p>
            </div>
          ) : null}
          <button type="submit" className="button primary small">
            Post comment
          </button>
        </form>
      ) : null}
      <ul className="comment-list">
        {comments.map((c) => (
          <CommentItem
            key={c.id}
            id={c.id}
            post={c.post}
            author={c.createdByName}
            at={c.createdAt}
            own={!readOnly && c.memberId === me.memberId}
          />
        ))}
      </ul>
    </section>
  )
}

function CommentItem({
  id,
  post,
  author,
  at,
  own,
}: {
  id: string
  post: string
  author: string
  at: string
  own: boolean
}) {
  const { dispatch } = useBoard()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(post)
  const [error, setError] = useState<string | null>(null)
  return (
    <li className="comment" aria-label={`Comment by ${author}`}>
      <div className="comment-meta">
        <strong>{author}</strong> <span className="muted small">{formatDateTime(at)}</span>
      </div>
      {editing ? (
        <div>
          <label htmlFor={`edit-${id}`} className="sr-only">
            Edit comment
          </label>
          <MentionBox
            id={`edit-${id}`}
            value={draft}
            savedValue={post}
            onChange={(value) => (setDraft(value), setError(null))}
          />
          {error ? (
            <div className="errors" role="alert">
              <p>{error}</p>
            </div>
          ) : null}
          <div className="row">
            <button
              type="button"
              className="button primary small"
              onClick={() => {
                const problem = commentError(draft)
                if (problem) return setError(problem)
                dispatch({ type: 'comment.edit', id, post: draft })
                setEditing(false)
              }}
            >
              Save
            </button>
            <button
              type="button"
              className="button small"
              onClick={() => (setDraft(post), setEditing(false))}
            >
              Cancel
            </button>
          </div>
        </div>
      ) : (
        <CommentText post={post} />
      )}
      {own && !editing ? (
        <div className="row">
          <button
            type="button"
            className="link-button small"
            onClick={() => (setDraft(post), setEditing(true))}
          >
            Edit
          </button>
          <button
            type="button"
            className="link-button small danger-text"
            onClick={() => dispatch({ type: 'comment.delete', id })}
          >
            Delete
          </button>
        </div>
      ) : null}
    </li>
  )
}
