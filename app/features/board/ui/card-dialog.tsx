import { useNavigate } from 'react-router'
import { Fragment, useEffect, useId, useState } from 'react'
import { Modal } from '~/ui/modal'
import { useDocumentTitle } from '~/ui/use-document-title'
import type { CardKind } from '~/features/board/board-commands'
import type { CardFields, Feature } from '~/features/map/bundle-types'
import { cardPlace, type CardPlace } from '~/features/board/card-place'
import { deletedWith } from '~/features/board/delete-summary'
import { colorFill } from '~/features/map/colors'
import { formatDate } from '~/lib/dates'
import { useBoard } from './board-context'
import { CopyButton } from '~/ui/copy-button'
import { AnnotationPicker, ColorPicker, DescriptionEditor, InlineTitle, SizeField } from './card-fields'
import { Discussion } from './discussion'
import { MoveTo } from './move-to'
import { TagPicker } from './tags'
import { DeletedCardDialog } from './deleted-card'
import { unsavedDraftsByField, type UnsavedDraft } from './unsaved-drafts'
import { useCardDialogParts } from './card-dialog-parts'

export type DialogKind = CardKind | 'project'
const SEGMENT: Record<DialogKind, string> = {
  milestone: 'm',
  workflow: 'w',
  subworkflow: 'sw',
  feature: 'f',
  project: 'p',
}
const LABEL: Record<DialogKind, string> = {
  milestone: 'Release',
  workflow: 'Goal',
  subworkflow: 'Activity',
  feature: 'Feature',
  project: 'Project',
}

function findEntity(bundle: ReturnType<typeof useBoard>['bundle'], kind: DialogKind, id: string) {
  switch (kind) {
    case 'project':
      return bundle.project.id === id ? bundle.project : undefined
    case 'milestone':
      return bundle.milestones.find((c) => c.id === id)
    case 'workflow':
      return bundle.workflows.find((c) => c.id === id)
    case 'subworkflow':
      return bundle.subWorkflows.find((c) => c.id === id)
    case 'feature':
      return bundle.features.find((c) => c.id === id)
  }
}

/** The card dialog of SPEC §2, on its own overlay route so a permalink opens it. */
export function CardDialog({ kind, id }: { kind: DialogKind; id: string }) {
  const board = useBoard()
  const { bundle, dispatch, readOnly, basePath, search, baseUrl } = board
  const { FeatureWatch, FeatureIssue, ReleaseIssues, ProjectSharing, FeatureSuggest } = useCardDialogParts()
  const navigate = useNavigate()
  const close = () => navigate(`${basePath}${search}`, { preventScrollReset: true })
  const headingId = useId()
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const [menuOpen, setMenuOpen] = useState(false)
  const entity = findEntity(bundle, kind, id)
  // The tab names the open card on its own URL (a permalink opened in a tab among others).
  useDocumentTitle(
    entity && kind !== 'project' ? `${entity.title} · ${bundle.project.title} · Storymap` : null,
  )

  // What was typed here when the card went: read while its fields are still mounted (they go
  // with this render), kept for the deleted card's dialog and, after a restore, the editor.
  const [typed, setTyped] = useState<UnsavedDraft[] | null>(null)
  if (!entity && typed === null) setTyped(unsavedDraftsByField())
  // Once the card is back (restored) its editor has taken the text: a later delete reads afresh.
  const present = entity !== undefined
  useEffect(() => {
    if (present && typed !== null) setTyped(null)
  }, [present, typed])

  if (!entity) {
    const deleted = board.live?.deletedBy.get(id)
    if (deleted)
      return (
        <DeletedCardDialog
          id={id}
          deleted={deleted}
          typed={typed ?? []}
          commandsUrl={readOnly ? null : `${basePath}/commands`}
          onClose={close}
        />
      )
    return (
      <Modal title="Card not found" onClose={close}>
        <p>This card does not exist any more.</p>
        <button type="button" className="button" onClick={close}>
          Close
        </button>
      </Modal>
    )
  }

  const card = kind === 'project' ? null : (entity as CardFields)
  const open = card ? card.status === 'OPEN' : true
  const editable = !readOnly && open
  const permalink = `${baseUrl}${basePath}/${SEGMENT[kind]}/${id}`
  const titleKind = kind
  const remove = () => {
    if (kind !== 'project') board.cardExits?.leaving(id, 'delete')
    dispatch({ type: 'card.delete', kind, id })
    if (kind !== 'project') close()
  }

  return (
    <Modal
      title={<span className="sr-only">{`${LABEL[kind]} card`}</span>}
      onClose={close}
      className={`card-dialog ${card?.status === 'CLOSED' ? 'closed' : ''}`}
      before={
        card ? (
          <div
            className="color-strip"
            style={{ background: colorFill(card.color) ?? 'var(--line)' }}
            aria-hidden="true"
          />
        ) : null
      }
    >
      <div className="dialog-grid">
        <div className="dialog-main">
          <p className="kind-label">
            {LABEL[kind]}
            {card?.status === 'CLOSED' ? <span className="badge">CLOSED</span> : null}
          </p>
          <CardPlaceLine place={cardPlace(bundle, kind, id)} />
          <InlineTitle
            headingId={headingId}
            value={entity.title}
            editable={editable}
            onSave={(title) => dispatch({ type: 'card.rename', kind: titleKind, id, title })}
          />
          <DescriptionEditor
            value={entity.description}
            typedBefore={typed?.find((d) => d.field === 'description')?.text}
            editable={editable}
            onSave={(description) => dispatch({ type: 'card.description', kind: titleKind, id, description })}
          />
          {kind === 'feature' && editable && FeatureSuggest ? (
            <FeatureSuggest feature={entity as Feature} />
          ) : null}
          {card ? (
            <AnnotationPicker
              value={card.annotations}
              editable={editable}
              onChange={(annotations) =>
                dispatch({ type: 'card.annotations', kind: kind as CardKind, id, annotations })
              }
            />
          ) : null}
          {kind === 'feature' ? (
            <TagPicker featureId={id} tagIds={(entity as Feature).tagIds ?? []} editable={editable} />
          ) : null}
          {kind === 'feature' ? <Discussion featureId={id} /> : null}
        </div>
        <aside className="dialog-side" aria-label="Card details">
          <div className="row spread">
            {!readOnly ? (
              <div className="card-menu">
                <button
                  type="button"
                  className="icon-button"
                  aria-label="Card menu"
                  aria-haspopup="menu"
                  aria-expanded={menuOpen}
                  onClick={() => setMenuOpen(!menuOpen)}
                >
                  <span aria-hidden="true">⋯</span>
                </button>
                {menuOpen ? (
                  <div className="menu" role="menu">
                    <button
                      type="button"
                      role="menuitem"
                      className="menu-button"
                      onClick={() => (setMenuOpen(false), setConfirmingDelete(true))}
                    >
                      Delete
                    </button>
                  </div>
                ) : null}
              </div>
            ) : (
              <span />
            )}
            <button type="button" className="icon-button" aria-label="Close" onClick={close}>
              <span aria-hidden="true">✕</span>
            </button>
          </div>
          {confirmingDelete ? (
            <div className="confirm" role="alert">
              <p>
                {kind === 'project'
                  ? 'Delete this project and everything in it?'
                  : `Delete this ${LABEL[kind].toLowerCase()}?`}
              </p>
              <DeletedWith kind={kind} id={id} />
              <div className="row">
                <button type="button" className="button danger small" onClick={remove}>
                  Yes, delete
                </button>
                <button type="button" className="button small" onClick={() => setConfirmingDelete(false)}>
                  Cancel
                </button>
              </div>
            </div>
          ) : null}
          {kind === 'feature' && FeatureWatch ? <FeatureWatch featureId={id} /> : null}
          {kind === 'feature' && !readOnly ? <MoveTo feature={entity as Feature} /> : null}
          {kind === 'feature' && FeatureIssue ? <FeatureIssue feature={entity as Feature} /> : null}
          {kind === 'milestone' && ReleaseIssues ? <ReleaseIssues milestoneId={id} /> : null}
          <div className="field">
            <label htmlFor={`${headingId}-permalink`}>Permalink</label>
            <div className="row nowrap">
              <input
                id={`${headingId}-permalink`}
                readOnly
                value={permalink}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton text={permalink} label="Copy permalink" />
            </div>
          </div>
          {card && editable ? (
            <ColorPicker
              value={card.color}
              onChange={(color) => dispatch({ type: 'card.color', kind: kind as CardKind, id, color })}
            />
          ) : null}
          {kind === 'feature' ? (
            <SizeField
              value={(entity as Feature).estimate}
              editable={editable}
              onSave={(estimate) => dispatch({ type: 'feature.estimate', id, estimate })}
            />
          ) : null}
          {kind === 'project' && ProjectSharing ? (
            <ProjectSharing projectId={id} basePath={basePath} />
          ) : null}
          <p className="small muted">{`Created ${formatDate(entity.createdAt)} by ${entity.createdByName}`}</p>
          <p className="small muted">{`Last modified ${formatDate(entity.lastModified)} by ${entity.lastModifiedByName}`}</p>
          {card && !readOnly ? (
            open ? (
              <button
                type="button"
                className="button wide"
                onClick={() => {
                  board.cardExits?.leaving(id, 'close')
                  dispatch({ type: 'card.close', kind: kind as CardKind, id })
                  close()
                }}
              >
                Mark card as Closed
              </button>
            ) : (
              <button
                type="button"
                className="button wide"
                onClick={() => dispatch({ type: 'card.open', kind: kind as CardKind, id })}
              >
                Reopen card
              </button>
            )
          ) : null}
        </aside>
      </div>
    </Modal>
  )
}

/** What goes with the card, named (`With it go its 2 activities (‘Browse’, ‘Pay’) and …`), and where it all waits. */
function DeletedWith({ kind, id }: { kind: DialogKind; id: string }) {
  const { bundle } = useBoard()
  if (kind === 'project') return null
  const what = deletedWith(bundle, kind, id)
  return <p className="small">{`${what ? `${what} ` : ''}Deleted cards stay in the Trash for 30 days.`}</p>
}

/** Where the card sits: `MVP › Shop › Pay` (a screen reader hears which name is which). */
function CardPlaceLine({ place }: { place: CardPlace }) {
  if (place.length === 0) return null
  return (
    <p className="card-place">
      {place.map(({ label, title }, i) => (
        <Fragment key={label}>
          {i > 0 ? (
            <>
              {' '}
              <span aria-hidden="true">›</span>{' '}
            </>
          ) : null}
          <span className="sr-only">{`${label} `}</span>
          <span className="card-place-name">{title}</span>
        </Fragment>
      ))}
    </p>
  )
}
