import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { useRef, useState } from 'react'
import { ErrorList, Field } from '~/ui/forms'
import { Modal } from '~/ui/modal'
import { duplicateProjectSchema } from '~/lib/validation'

/** The menu of one project on the project list. */
export function ProjectRowMenu({ project }: { project: { id: string; title: string } }) {
  const [open, setOpen] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  return (
    <div className="project-menu">
      <button
        ref={button}
        type="button"
        className="button small"
        aria-label={`Project menu: ${project.title}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open ? (
        <div className="menu" role="menu">
          <Link
            to={`?duplicate=${project.id}`}
            className="menu-link"
            role="menuitem"
            // The dialog gives focus back to whatever had it when it opened: the menu button, not this item.
            onClick={() => (button.current?.focus(), setOpen(false))}
          >
            Duplicate
          </Link>
        </div>
      ) : null}
    </div>
  )
}

/** Asks for the copy's title (default `Copy of <title>`); the page action makes the copy and opens it. */
export function DuplicateProjectDialog({
  project,
  lastResult,
  onClose,
}: {
  project: { id: string; title: string }
  lastResult: SubmissionResult<string[]> | undefined
  onClose: () => void
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    defaultValue: { title: `Copy of ${project.title}`.slice(0, 200) },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: duplicateProjectSchema }),
  })
  return (
    <Modal title="Duplicate project" onClose={onClose}>
      <Form method="post" {...getFormProps(form)} noValidate>
        <input type="hidden" name="intent" value="duplicate" />
        <input type="hidden" name="projectId" value={project.id} />
        <Field label="Title" meta={fields.title} autoComplete="off" autoFocus />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="row end">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            Duplicate
          </button>
        </div>
      </Form>
    </Modal>
  )
}
