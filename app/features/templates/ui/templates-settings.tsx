import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { useEffect, useRef } from 'react'
import { ErrorList } from '~/ui/forms'
import { countOf } from '~/lib/counts'
import { templateTitleFormSchema } from '../template-forms'
import type { TemplateSummary } from '../templates'

/**
 * Workspace settings → Templates (CONTRACT §16): the workspace's own templates, each renamed or
 * deleted (after a confirmation) by OWNERs and ADMINs. Plain forms: they work without JavaScript.
 */

function RenameForm({
  template,
  lastResult,
}: {
  template: TemplateSummary
  lastResult?: SubmissionResult<string[]>
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    id: `rename-template-${template.id}`,
    lastResult,
    defaultValue: { title: template.title },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: templateTitleFormSchema }),
  })
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="row template-rename">
      <input type="hidden" name="id" value={template.id} />
      <label htmlFor={fields.title.id} className="sr-only">
        {`Title of ${template.title}`}
      </label>
      <input
        {...getInputProps(fields.title, { type: 'text' })}
        autoComplete="off"
        autoFocus
        className="text"
      />
      <button
        type="submit"
        name="intent"
        value="renameTemplate"
        className="button small primary"
        disabled={busy}
      >
        Save
      </button>
      <Link className="button small" to={`?template=${template.id}`} preventScrollReset>
        Cancel
      </Link>
      <ErrorList id={fields.title.errorId} errors={fields.title.errors} />
      <ErrorList id={form.errorId} errors={form.errors} />
    </Form>
  )
}

/** React focuses only form controls with `autoFocus`; a link or a heading is focused here. */
function useFocusWhen<T extends HTMLElement>(when: boolean) {
  const ref = useRef<T>(null)
  useEffect(() => {
    if (when) ref.current?.focus()
  }, [when])
  return ref
}

function TemplateRow({
  template,
  renaming,
  deleting,
  canManage,
  focused,
  lastResult,
}: {
  template: TemplateSummary
  canManage: boolean
  /** Back from renaming it or a Cancel: its Rename takes the focus. */
  focused: boolean
  renaming: boolean
  deleting: boolean
  lastResult?: SubmissionResult<string[]>
}) {
  const busy = useNavigation().state === 'submitting'
  const renameLink = useFocusWhen<HTMLAnchorElement>(focused)
  return (
    <li className="template-row">
      {renaming ? (
        <RenameForm template={template} lastResult={lastResult} />
      ) : (
        <div>
          <strong>{template.title}</strong>{' '}
          <span className="muted small">{`${countOf(template.goals, 'goal')}, ${countOf(template.features, 'feature')}`}</span>
        </div>
      )}
      {deleting ? (
        <Form method="post" className="row" aria-label={`Delete ${template.title}`}>
          <span>New projects can no longer start from it; projects made from it keep their maps.</span>
          <input type="hidden" name="id" value={template.id} />
          <button
            type="submit"
            name="intent"
            value="deleteTemplate"
            className="button small danger"
            disabled={busy}
            autoFocus
          >
            Delete template
          </button>
          <Link className="button small" to={`?template=${template.id}`} preventScrollReset>
            Cancel
          </Link>
        </Form>
      ) : renaming || !canManage ? null : (
        <div className="row">
          <Link
            className="button small"
            to={`?renameTemplate=${template.id}`}
            preventScrollReset
            aria-label={`Rename ${template.title}`}
            ref={renameLink}
          >
            Rename
          </Link>
          <Link
            className="button small"
            to={`?deleteTemplate=${template.id}`}
            preventScrollReset
            aria-label={`Delete ${template.title}`}
          >
            Delete
          </Link>
        </div>
      )}
    </li>
  )
}

export function TemplatesSection({
  templates,
  canManage,
  renaming,
  deleting,
  focused,
  lastRename,
}: {
  templates: TemplateSummary[]
  /** `?template=`: the template whose Rename takes the focus, or `deleted` (the heading does). */
  focused: string | null
  /** False while the plan is inactive: the list shows, without its controls. */
  canManage: boolean
  renaming: string | null
  deleting: string | null
  lastRename?: { id: string; result: SubmissionResult<string[]> }
}) {
  const heading = useFocusWhen<HTMLHeadingElement>(focused === 'deleted')
  return (
    <section className="card settings-card" aria-label="Templates" id="templates">
      <h2 tabIndex={-1} ref={heading}>
        Templates
      </h2>
      {templates.length === 0 ? (
        <p className="muted">
          No templates yet. Save a board as a template with Save as template in its project menu; New project
          then offers it beside the built-in ones.
        </p>
      ) : (
        <ul className="template-list">
          {templates.map((t) => (
            <TemplateRow
              key={t.id}
              template={t}
              renaming={canManage && (renaming === t.id || lastRename?.id === t.id)}
              deleting={canManage && deleting === t.id}
              canManage={canManage}
              focused={focused === t.id}
              lastResult={lastRename?.id === t.id ? lastRename.result : undefined}
            />
          ))}
        </ul>
      )}
    </section>
  )
}
