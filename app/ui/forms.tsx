import { getInputProps, getSelectProps, type FieldMetadata } from '@conform-to/react'
import type { ReactNode } from 'react'
import { HONEYPOT_FIELD } from '~/http/abuse'

/**
 * When the account forms check their fields: on submit first, then as the user types. Not on
 * blur: a message appearing under a field the user just left moves what is below it, and the
 * click that made the field lose focus (on `Sign up`, `Forgot your password?`) lands beside.
 */
export const VALIDATE_ON_SUBMIT = { shouldValidate: 'onSubmit', shouldRevalidate: 'onInput' } as const

type FieldProps = {
  label: string
  meta: FieldMetadata<string | undefined>
  type?: 'text' | 'email' | 'password'
  autoComplete?: string
  autoFocus?: boolean
  hint?: ReactNode
}

/** A labelled input whose errors are announced and tied to it (aria-describedby). */
export function Field({ label, meta, type = 'text', autoComplete, autoFocus, hint }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <input {...getInputProps(meta, { type })} autoComplete={autoComplete} autoFocus={autoFocus} />
      {hint ? <div className="hint">{hint}</div> : null}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** A labelled select (its options as children) whose errors are announced and tied to it. */
export function SelectField<Value, Form extends Record<string, unknown>>({
  label,
  meta,
  children,
}: {
  label: string
  meta: FieldMetadata<Value, Form, string[]>
  children: ReactNode
}) {
  return (
    <div className="field">
      <label htmlFor={meta.id}>{label}</label>
      <select {...getSelectProps(meta)}>{children}</select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  )
}

/** A form's submit button in a row of fields, lined up with the inputs beside it (an empty label above). */
export function InlineSubmit({
  intent,
  busy,
  children,
}: {
  intent: string
  busy: boolean
  children: ReactNode
}) {
  return (
    <div className="field">
      <label aria-hidden="true">&nbsp;</label>
      <button type="submit" name="intent" value={intent} className="button primary" disabled={busy}>
        {children}
      </button>
    </div>
  )
}

export function ErrorList({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return <div id={id} className="errors" />
  return (
    <div id={id} className="errors" role="alert">
      {errors.map((e) => (
        <p key={e}>{e}</p>
      ))}
    </div>
  )
}

const OFF_SCREEN = {
  position: 'absolute',
  left: '-10000px',
  width: 1,
  height: 1,
  overflow: 'hidden',
} as const

/** The honeypot of public forms: invisible and unreachable for people, filled by form-stuffing bots. */
export function Honeypot() {
  return (
    <div aria-hidden="true" style={OFF_SCREEN}>
      <label htmlFor={HONEYPOT_FIELD}>Leave this field empty</label>
      <input
        id={HONEYPOT_FIELD}
        name={HONEYPOT_FIELD}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  )
}
