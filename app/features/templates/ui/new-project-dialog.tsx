import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigate, useNavigation } from 'react-router'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { countOf } from '~/lib/counts'
import { ErrorList, Field, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { Modal } from '~/ui/modal'
import { newProjectSchema } from '../template-forms'
import type { TemplateChoice, TemplateShape } from '../templates'

/** `4 goals, 10 activities, 3 releases, 32 features`. */
export function shapeCounts(shape: TemplateShape) {
  return [
    countOf(shape.goals, 'goal'),
    countOf(shape.activities, 'activity', 'activities'),
    countOf(shape.releases, 'release'),
    countOf(shape.features, 'feature'),
  ].join(', ')
}

/** One radio of the `Start from` group: its title, description and (when chosen) its shape. */
function Choice({
  name,
  value,
  checked,
  title,
  description,
  shape,
  badge,
}: {
  name: string
  value: string
  checked: boolean
  title: string
  description: string
  shape?: TemplateShape
  badge?: string
}) {
  const id = useId()
  return (
    <li className="template-choice">
      <input
        type="radio"
        id={id}
        name={name}
        value={value}
        defaultChecked={checked}
        aria-describedby={`${id}-about`}
      />
      <div className="template-choice-text">
        <label htmlFor={id} className="template-choice-title">
          {title}
          {badge ? <span className="badge small">{badge}</span> : null}
        </label>
        <div id={`${id}-about`}>
          {description ? <p className="template-choice-description">{description}</p> : null}
          {shape ? (
            <div className="template-shape">
              <p className="template-shape-counts">{shapeCounts(shape)}</p>
              {shape.goalTitles.length > 0 ? (
                <p className="template-shape-goals">{`Goals: ${shape.goalTitles.join(' · ')}`}</p>
              ) : null}
            </div>
          ) : null}
        </div>
      </div>
    </li>
  )
}

/**
 * `New project` (SPEC §5, CONTRACT §16): a title, and `Blank` or a template (built-in, then the
 * workspace's own), each with its description; the chosen one shows its shape (CSS, so also
 * without JavaScript). A plain form posted to the project list's action.
 */
export function NewProjectDialog({
  workspaceName,
  templates,
  lastResult,
  draftMap,
}: {
  workspaceName: string
  templates: TemplateChoice[]
  lastResult?: SubmissionResult<string[]>
  /** The assistant's `Draft a map` panel, where the member may use it; `back` returns to the form. */
  draftMap?: (back: () => void) => ReactNode
}) {
  const [drafting, setDrafting] = useState(false)
  const draftButton = useRef<HTMLButtonElement>(null)
  const wasDrafting = useRef(false)
  useEffect(() => {
    if (wasDrafting.current && !drafting) draftButton.current?.focus()
    wasDrafting.current = drafting
  }, [drafting])
  const navigate = useNavigate()
  const busy = useNavigation().state === 'submitting'
  const legendId = useId()
  const [form, fields] = useForm({
    lastResult,
    // Not on blur: the title's message would move the choices under the pointer picking one.
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newProjectSchema }),
  })
  const chosen = (fields.templateId.initialValue as string | undefined) ?? ''
  const builtIn = templates.filter((t) => t.builtIn)
  const own = templates.filter((t) => !t.builtIn)
  return (
    <Modal
      title="Create project"
      onClose={() => navigate(`/${workspaceName}`)}
      className="new-project-dialog"
    >
      {draftMap && drafting ? draftMap(() => setDrafting(false)) : null}
      <Form method="post" {...getFormProps(form)} noValidate hidden={drafting}>
        <Field label="Title" meta={fields.title} autoComplete="off" autoFocus />
        <fieldset
          className="template-choices"
          aria-labelledby={legendId}
          // The chosen one's shape opens below it: keep it in view in the scrolled list.
          onChange={(event) => {
            const choice = (event.target as HTMLElement).closest('li')
            requestAnimationFrame(() => choice?.scrollIntoView({ block: 'nearest' }))
          }}
        >
          <legend id={legendId}>Start from</legend>
          <ul>
            <Choice
              name={fields.templateId.name}
              value=""
              checked={chosen === ''}
              title="Blank"
              description="An empty map: add goals, activities and features yourself."
            />
            {[...builtIn, ...own].map((t) => (
              <Choice
                key={t.id}
                name={fields.templateId.name}
                value={t.id}
                checked={chosen === t.id}
                title={t.title}
                description={t.description}
                shape={t.shape}
                badge={t.builtIn ? undefined : 'Workspace'}
              />
            ))}
          </ul>
          <ErrorList id={fields.templateId.errorId} errors={fields.templateId.errors} />
        </fieldset>
        {draftMap ? (
          <p className="draft-map-offer">
            <button ref={draftButton} type="button" className="button" onClick={() => setDrafting(true)}>
              Draft a map
            </button>
            <span className="hint">
              Describe the product; the assistant drafts goals, activities and features.
            </span>
          </p>
        ) : null}
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="row end">
          <Link className="button" to={`/${workspaceName}`}>
            Cancel
          </Link>
          <button type="submit" className="button primary" disabled={busy}>
            Create
          </button>
        </div>
      </Form>
    </Modal>
  )
}
