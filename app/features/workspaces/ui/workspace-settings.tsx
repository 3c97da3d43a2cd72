import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { useId, type ReactNode } from 'react'
import { CopyButton } from '~/ui/copy-button'
import { inviteSchema } from '../workspace-forms'
import { formatDate } from '~/lib/dates'
import { assignableLevels, can, isOwner, LEVEL_NAMES, LEVELS, type Level } from '~/features/map/permissions'
import { ErrorList, Field, InlineSubmit, SelectField } from '~/ui/forms'

/** The sections of /{workspace}/settings (SPEC §2, §6). Every control is a plain form. */

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`card settings-card ${className ?? ''}`} aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

function ActionButton({
  intent,
  id,
  children,
  className = 'button small',
}: {
  intent: string
  id?: string
  children: ReactNode
  className?: string
}) {
  const busy = useNavigation().state === 'submitting'
  return (
    <Form method="post" className="inline">
      {id ? <input type="hidden" name="id" value={id} /> : null}
      <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
        {children}
      </button>
    </Form>
  )
}

function LevelOptions({ allowed }: { allowed?: readonly Level[] }) {
  return (
    <>
      {(allowed ?? LEVELS).map((l) => (
        <option key={l} value={l}>
          {LEVEL_NAMES[l]}
        </option>
      ))}
    </>
  )
}

export function MembershipSection({ level, canLeave }: { level: Level; canLeave: boolean }) {
  return (
    <Section title="My membership">
      <p>
        Your level in this workspace: <span className="badge">{LEVEL_NAMES[level]}</span>
      </p>
      {canLeave ? (
        <ActionButton intent="leave" className="button">
          Leave workspace
        </ActionButton>
      ) : null}
    </Section>
  )
}

/**
 * `Allow external sharing` (CONTRACT §8): every project's share link works only while it is on.
 * Members who may not change it see it disabled, with the reason.
 */
export function SharingSection({ allow, refusal }: { allow: boolean; refusal: string | null }) {
  const busy = useNavigation().state === 'submitting'
  return (
    <Section title="Sharing">
      {/* Keyed by the saved value, so the box shows it after each save. */}
      <Form method="post" key={String(allow)}>
        <div className="field">
          <label className="check">
            <input
              type="checkbox"
              name="allowExternalSharing"
              defaultChecked={allow}
              disabled={refusal !== null}
              aria-describedby="sharing-hint"
            />{' '}
            Allow external sharing
          </label>
          <div className="hint" id="sharing-hint">
            Off: no project&apos;s share link works. On: each project&apos;s settings can still stop its own.
          </div>
        </div>
        {refusal ? (
          <p className="muted small">{refusal}</p>
        ) : (
          <button type="submit" name="intent" value="externalSharing" className="button" disabled={busy}>
            Save
          </button>
        )}
      </Form>
    </Section>
  )
}

/** `link`: the invitation's link, for owners and admins of a server without mail (null otherwise). */
type Invite = {
  id: string
  email: string
  level: Level
  createdByName: string
  createdAt: string
  link: string | null
}

export function InvitesSection({
  invites,
  mailSetUp,
  planActive,
  lastResult,
}: {
  invites: Invite[]
  /** False: this server sends no e-mail (SMTP_URL unset), so each invitation's link is shown to pass on. */
  mailSetUp: boolean
  planActive: boolean
  lastResult?: SubmissionResult<string[]>
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    id: 'invite',
    lastResult,
    defaultValue: { level: 'VIEWER' },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: inviteSchema }),
  })
  return (
    <Section title="Workspace invites">
      {mailSetUp ? null : (
        <p className="notice">
          Mail is not set up on this server (SMTP_URL is unset): invitations are not e-mailed. Copy each
          invitation link and send it yourself.
        </p>
      )}
      {/* Keyed by the list, so a sent invite clears the fields when JavaScript is on. */}
      <Form
        key={invites.map((i) => i.id).join()}
        method="post"
        {...getFormProps(form)}
        noValidate
        className="row"
        style={{ alignItems: 'flex-start' }}
      >
        <Field label="Email" meta={fields.email} type="email" autoComplete="off" />
        <SelectField label="Level" meta={fields.level}>
          <LevelOptions />
        </SelectField>
        <InlineSubmit intent="invite" busy={busy}>
          Send invite
        </InlineSubmit>
        <ErrorList id={form.errorId} errors={form.errors} />
      </Form>
      {invites.length === 0 ? (
        <p className="muted">No pending invites</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Level</th>
              <th>Invited by</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invites.map((i) => (
              <tr key={i.id}>
                <td>
                  {i.email}
                  {mailSetUp ? null : <InvitationLink email={i.email} link={i.link} />}
                </td>
                <td>{LEVEL_NAMES[i.level]}</td>
                <td className="muted small">{`${i.createdByName}, ${formatDate(i.createdAt)}`}</td>
                <td className="row end" style={{ marginTop: 0 }}>
                  {planActive ? (
                    <ActionButton intent="resendInvite" id={i.id}>
                      Resend
                    </ActionButton>
                  ) : null}
                  <ActionButton intent="cancelInvite" id={i.id}>
                    Cancel
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Section>
  )
}

/** A pending invitation's link to pass on by hand, selectable and copyable. */
function InvitationLink({ email, link }: { email: string; link: string | null }) {
  const id = useId()
  if (!link) return <p className="small muted">Resend it to make a link you can copy.</p>
  return (
    <div className="row nowrap invitation-link">
      <label className="sr-only" htmlFor={id}>{`Invitation link for ${email}`}</label>
      <input id={id} readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
      <CopyButton text={link} label={`Copy invitation link for ${email}`}>
        Copy invitation link
      </CopyButton>
    </div>
  )
}

type Member = { id: string; name: string; email: string; level: Level }

export function MembersSection({
  members,
  me,
  planActive,
}: {
  members: Member[]
  me: { memberId: string; level: Level }
  planActive: boolean
}) {
  const busy = useNavigation().state === 'submitting'
  const assignable = assignableLevels(me.level)
  return (
    <Section title="Members">
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Email</th>
            <th>Level</th>
            <th>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {members.map((m) => {
            const self = m.id === me.memberId
            const locked = self || (!can({ level: me.level, planActive }, 'manageOwners') && isOwner(m.level))
            return (
              <tr key={m.id}>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>
                  {locked || !planActive ? (
                    LEVEL_NAMES[m.level]
                  ) : (
                    <Form method="post" className="row">
                      <input type="hidden" name="id" value={m.id} />
                      <select
                        name="level"
                        defaultValue={m.level}
                        aria-label={`Level of ${m.name}`}
                        className="text"
                      >
                        <LevelOptions allowed={assignable} />
                      </select>
                      <button
                        type="submit"
                        name="intent"
                        value="changeRole"
                        className="button small"
                        disabled={busy}
                      >
                        Change
                      </button>
                    </Form>
                  )}
                </td>
                <td>
                  {self ? (
                    <span className="badge">THIS IS YOU</span>
                  ) : locked ? null : (
                    <ActionButton intent="removeMember" id={m.id}>
                      Remove
                    </ActionButton>
                  )}
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </Section>
  )
}

export function DeleteWorkspaceSection({ confirm }: { confirm: boolean }) {
  return (
    <Section title="Delete workspace" className="danger-zone">
      <p className="muted">
        Deleting the workspace removes all its projects, members and invites. This cannot be undone.
      </p>
      {confirm ? (
        <div className="row">
          <ActionButton intent="deleteWorkspace" className="button danger">
            Yes, I am really sure!
          </ActionButton>
          <Link className="button" to="?">
            Cancel
          </Link>
        </div>
      ) : (
        <Link className="button danger" to="?delete=1">
          Delete workspace
        </Link>
      )}
    </Section>
  )
}
