import { useId, useState, type FormEvent } from 'react'
import { AVATARS, DESCRIPTION_MAX } from '~/features/map/vocabulary'
import { byRank } from '~/features/board/board-grid'
import type { Persona } from '~/features/map/bundle-types'
import { newId } from '~/lib/uuid'
import { useBoard, type PersonaView } from './board-context'
import { PersonaAvatar } from './persona-avatar'
import { SidePanel } from '~/ui/side-panel'

/** The persona side panel: all personas, one persona (view or edit), or the create form. */
export function PersonaPanel({
  view,
  onNavigate,
  onClose,
}: {
  view: PersonaView
  onNavigate: (v: PersonaView) => void
  onClose: () => void
}) {
  const { bundle, readOnly } = useBoard()
  const persona = view.page === 'persona' ? bundle.personas.find((p) => p.id === view.personaId) : undefined
  // A goal's `+` offers the personas not on it yet; with none to offer it goes to the form at once.
  const offered = view.page === 'add' ? personasOffered(bundle, view.workflowId) : []
  const creating = view.page === 'create' || (view.page === 'add' && offered.length === 0)
  const createFor = view.page === 'create' || view.page === 'add' ? view.workflowId : undefined
  return (
    <SidePanel title="Personas" heading={creating ? 'New persona' : 'Personas'} onClose={onClose}>
      {view.page === 'all' ? (
        <>
          {bundle.personas.length === 0 ? <p className="muted">No personas yet.</p> : null}
          <ul className="persona-list">
            {bundle.personas.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className="persona-row"
                  onClick={() => onNavigate({ page: 'persona', personaId: p.id })}
                >
                  <PersonaAvatar avatar={p.avatar} size={36} />
                  <span>
                    <strong>{p.name}</strong>
                    {p.role ? <span className="muted small block">{p.role}</span> : null}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {!readOnly ? (
            <button type="button" className="button primary" onClick={() => onNavigate({ page: 'create' })}>
              New persona
            </button>
          ) : null}
        </>
      ) : null}
      {view.page === 'persona' && persona ? (
        view.editing && !readOnly ? (
          <PersonaForm
            persona={persona}
            onDone={() => onNavigate({ page: 'persona', personaId: persona.id })}
          />
        ) : (
          <PersonaDetails persona={persona} onNavigate={onNavigate} />
        )
      ) : null}
      {view.page === 'persona' && !persona ? (
        <p className="muted">This persona does not exist any more.</p>
      ) : null}
      {view.page === 'add' && offered.length > 0 && !readOnly ? (
        <OfferedPersonas workflowId={view.workflowId} personas={offered} onNavigate={onNavigate} />
      ) : null}
      {creating && !readOnly ? (
        <PersonaForm
          workflowId={createFor}
          onDone={(id) => onNavigate(id ? { page: 'persona', personaId: id } : { page: 'all' })}
        />
      ) : null}
    </SidePanel>
  )
}

/** The project's personas that are not on the goal yet, by name (as the bundle lists them). */
function personasOffered(bundle: ReturnType<typeof useBoard>['bundle'], workflowId: string): Persona[] {
  const onGoal = new Set(
    bundle.workflowPersonas.filter((wp) => wp.workflowId === workflowId).map((wp) => wp.personaId),
  )
  return bundle.personas.filter((p) => !onGoal.has(p.id))
}

/** A goal's `+`: pick one of the project's personas to put on the goal, or make a new one. */
function OfferedPersonas({
  workflowId,
  personas,
  onNavigate,
}: {
  workflowId: string
  personas: Persona[]
  onNavigate: (v: PersonaView) => void
}) {
  const { bundle, dispatch } = useBoard()
  const goal = bundle.workflows.find((w) => w.id === workflowId)
  const headingId = useId()
  const attach = (persona: Persona) => {
    dispatch({ type: 'workflowPersona.create', id: newId(), workflowId, personaId: persona.id })
    onNavigate({ page: 'persona', personaId: persona.id })
  }
  return (
    <div className="persona-offer">
      {goal ? <p className="muted small">{`For goal: ${goal.title}`}</p> : null}
      <h3 id={headingId}>Add an existing persona</h3>
      <ul className="persona-list" aria-labelledby={headingId}>
        {personas.map((p) => (
          <li key={p.id}>
            <button type="button" className="persona-row" onClick={() => attach(p)}>
              <PersonaAvatar avatar={p.avatar} size={36} />
              <span>
                <strong>{p.name}</strong>
                {p.role ? <span className="muted small block">{p.role}</span> : null}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button primary"
        onClick={() => onNavigate({ page: 'create', workflowId })}
      >
        New persona
      </button>
    </div>
  )
}

function PersonaDetails({ persona, onNavigate }: { persona: Persona; onNavigate: (v: PersonaView) => void }) {
  const { bundle, dispatch, readOnly } = useBoard()
  const [goalId, setGoalId] = useState('')
  const links = bundle.workflowPersonas.filter((wp) => wp.personaId === persona.id)
  const linkedGoals = new Set(links.map((l) => l.workflowId))
  const otherGoals = [...bundle.workflows].sort(byRank).filter((w) => !linkedGoals.has(w.id))
  return (
    <div className="persona-details">
      <button type="button" className="link-button small" onClick={() => onNavigate({ page: 'all' })}>
        <span aria-hidden="true">← </span>All personas
      </button>
      <div className="row">
        <PersonaAvatar avatar={persona.avatar} size={56} />
        <div>
          <h3>{persona.name}</h3>
          {persona.role ? <p className="muted">{persona.role}</p> : null}
        </div>
      </div>
      {persona.description ? <p className="pre-wrap">{persona.description}</p> : null}
      <h4>Goals</h4>
      <ul className="plain">
        {links.map((l) => {
          const goal = bundle.workflows.find((w) => w.id === l.workflowId)
          return (
            <li key={l.id} className="row spread">
              <span>{goal?.title ?? 'Unknown goal'}</span>
              {!readOnly ? (
                <button
                  type="button"
                  className="link-button small"
                  onClick={() => dispatch({ type: 'workflowPersona.delete', id: l.id })}
                  aria-label={`Remove ${persona.name} from goal ${goal?.title ?? ''}`}
                >
                  Remove
                </button>
              ) : null}
            </li>
          )
        })}
        {links.length === 0 ? <li className="muted small">Not on any goal.</li> : null}
      </ul>
      {!readOnly && otherGoals.length > 0 ? (
        <div className="row nowrap">
          <label className="sr-only" htmlFor="persona-goal">
            Goal
          </label>
          <select id="persona-goal" value={goalId} onChange={(e) => setGoalId(e.target.value)}>
            <option value="">Choose a goal…</option>
            {otherGoals.map((w) => (
              <option key={w.id} value={w.id}>
                {w.title}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button small"
            disabled={!goalId}
            onClick={() => {
              dispatch({
                type: 'workflowPersona.create',
                id: newId(),
                workflowId: goalId,
                personaId: persona.id,
              })
              setGoalId('')
            }}
          >
            Add to goal
          </button>
        </div>
      ) : null}
      {!readOnly ? (
        <div className="row">
          <button
            type="button"
            className="button small"
            onClick={() => onNavigate({ page: 'persona', personaId: persona.id, editing: true })}
          >
            Edit
          </button>
          <button
            type="button"
            className="button small danger-text"
            onClick={() => {
              dispatch({ type: 'persona.delete', id: persona.id })
              onNavigate({ page: 'all' })
            }}
          >
            Delete
          </button>
        </div>
      ) : null}
    </div>
  )
}

function PersonaForm({
  persona,
  workflowId,
  onDone,
}: {
  persona?: Persona
  workflowId?: string
  onDone: (id?: string) => void
}) {
  const { bundle, dispatch } = useBoard()
  const id = useId()
  const [avatar, setAvatar] = useState(persona?.avatar ?? 'avatar00')
  const [name, setName] = useState(persona?.name ?? '')
  const [role, setRole] = useState(persona?.role ?? '')
  const [description, setDescription] = useState(persona?.description ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const goal = workflowId ? bundle.workflows.find((w) => w.id === workflowId) : undefined

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    const problems: Record<string, string> = {}
    if (!name.trim()) problems.name = 'Required.'
    else if (name.trim().length > 200) problems.name = 'Maximum 200 characters.'
    if (role.length > 200) problems.role = 'Maximum 200 characters.'
    if (description.length > DESCRIPTION_MAX) problems.description = `Maximum ${DESCRIPTION_MAX} characters.`
    setErrors(problems)
    if (Object.keys(problems).length) return
    if (persona) {
      dispatch({
        type: 'persona.update',
        id: persona.id,
        avatar: avatar as (typeof AVATARS)[number],
        name: name.trim(),
        role,
        description,
      })
      onDone(persona.id)
    } else {
      const personaId = newId()
      dispatch({
        type: 'persona.create',
        id: personaId,
        projectId: bundle.project.id,
        avatar: avatar as (typeof AVATARS)[number],
        name: name.trim(),
        role,
        description,
        workflowId: workflowId ?? null,
        workflowPersonaId: workflowId ? newId() : null,
      })
      onDone(personaId)
    }
  }
  const error = (field: string) =>
    errors[field] ? (
      <div className="errors" role="alert">
        <p>{errors[field]}</p>
      </div>
    ) : null
  return (
    <form onSubmit={onSubmit} noValidate className="persona-form">
      {goal ? <p className="muted small">{`For goal: ${goal.title}`}</p> : null}
      <fieldset className="avatar-picker">
        <legend>Avatar</legend>
        {AVATARS.map((a, i) => (
          <button
            key={a}
            type="button"
            className={`avatar-option ${avatar === a ? 'selected' : ''}`}
            aria-pressed={avatar === a}
            aria-label={`Avatar ${i + 1}`}
            onClick={() => setAvatar(a)}
          >
            <PersonaAvatar avatar={a} size={36} />
          </button>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        {error('name')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <input id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value)} />
        {error('role')}
      </div>
      <div className="field">
        <label htmlFor={`${id}-description`}>Description</label>
        <textarea
          id={`${id}-description`}
          rows={4}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
        {error('description')}
      </div>
      <div className="row end">
        <button type="button" className="button" onClick={() => onDone(persona?.id)}>
          Cancel
        </button>
        <button type="submit" className="button primary">
          {persona ? 'Save' : 'Create'}
        </button>
      </div>
    </form>
  )
}
