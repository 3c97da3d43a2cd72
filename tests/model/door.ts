import fc from 'fast-check'
import { expect } from 'vitest'
import { parseBoardCommand, type BoardCommand, type BoardCommandInput } from '~/features/board/board-commands'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { bundleProblems, comparable } from './compare'
import {
  commit,
  label,
  mayDraw,
  predictCommands,
  predictRedo,
  predictRestore,
  predictUndo,
  version,
  type Model,
  type Prediction,
} from './model'
import { build, describePlan, type Plan } from './plans'
import { mcpCall, sendCommands, sendHistory, type Channel, type Outcome, type World } from './world'

/**
 * One drawn command run against the real server and the model side by side: the model predicts
 * (refusal, or the bundle after), the server answers, and the two must agree: a refusal with the
 * predicted status and an unchanged bundle and version; an acceptance with the next version and
 * a bundle equal to the model's on the compared fields (compare.ts) that breaks no invariant.
 */

/** The server side of one sequence: its project, the bundle last read, each version's activity sentence, and what was sent (ids as `kind#n`). */
export type Real = {
  w: World
  projectId: string
  last: ProjectBundle
  summaries: Map<number, string>
  log: string[]
}

/** What the runs did, printed at the end (a model test that runs nothing passes too). */
export const tally = new Map<string, number>()
const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1)

export async function fetchBundle(r: Real): Promise<ProjectBundle> {
  const res = await r.w.actors.owner.client.get(`/v1/projects/${r.projectId}`)
  if (res.status !== 200) throw new Error(`GET bundle: ${res.status} ${res.text}`)
  return res.json
}

/** The status an MCP tool error stands for, from the code it ends with (MCP answers no HTTP status). */
function statusOfCode(code = ''): number | undefined {
  if (code.endsWith('not_found')) return 404
  if (code === 'level_too_low' || code === 'not_author') return 403
  if (code.endsWith('_invalid') || code === 'card_closed') return 400
  if (/_taken$|^nothing_to_|_conflict$|^parent_missing$/.test(code)) return 409
  return undefined
}

function parsed(commands: BoardCommandInput[]): BoardCommand[] {
  return commands.map((c) => {
    const result = parseBoardCommand(c)
    if (!result.ok)
      throw new Error(`the model made an invalid command: ${JSON.stringify(c)} (${result.code})`)
    return result.command
  })
}

export class Door implements fc.AsyncCommand<Model, Real> {
  constructor(readonly plan: Plan) {}

  /** Runnable when it has something to act on (undo, redo and restore: see mayDraw). */
  check(m: Readonly<Model>): boolean {
    const built = build(this.plan, m as Model, undefined, crypto.randomUUID())
    if (!built) return false
    if (built.kind !== 'history' || built.expect || this.plan.who === 'viewer') return true
    return mayDraw(m as Model, this.plan.who, built.op, built.id)
  }

  async run(m: Model, r: Real): Promise<void> {
    const { who } = this.plan
    const actor = r.w.actors[who]
    const newId = crypto.randomUUID()
    const built = build(this.plan, m, r.w, newId)!
    let predicted: Prediction
    let outcome: Outcome
    let channel: Channel
    let sent: string
    if (built.kind === 'history') {
      sent = `${built.op} ${built.id}`
      channel = built.op === 'undo' && this.plan.channel === 'mcp' ? 'mcp' : 'rest'
      const predict = {
        undo: () => predictUndo(m, who),
        redo: () => predictRedo(m, who),
        restore: () => predictRestore(m, who, built.id),
      }
      predicted = built.expect ? { refuse: built.expect } : predict[built.op]()
      outcome = await sendHistory(actor, channel, built.op, built.id)
    } else {
      let commands = built.commands
      channel = this.plan.channel === 'mcp' && !mcpCall(commands, m.bundle) ? 'rest' : this.plan.channel
      if (channel !== 'mcp') commands = commands.slice(0, 1)
      sent = JSON.stringify(commands)
      predicted = built.expect ? { refuse: built.expect } : predictCommands(m, who, parsed(commands))
      outcome = await sendCommands(r.w, actor, channel, r.projectId, commands, m.bundle)
      // MCP makes the ids of what it creates: the model takes the one it answered.
      if (outcome.ok && channel === 'mcp' && outcome.id && !built.expect) {
        const ids = JSON.parse(JSON.stringify(commands).replaceAll(commands[0].id, outcome.id))
        predicted = predictCommands(m, who, parsed(ids))
      }
    }
    sent = sent.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, (id) => (id === newId ? 'new' : label(m, id)))
    r.log.push(`${this.plan.who} ${sent} via ${channel}: ${outcome.ok ? 'ok' : outcome.code}`)
    const what = `${describePlan(this.plan)} = ${sent} via ${channel}, answered ${JSON.stringify(outcome)}`
    count(
      `${'refuse' in predicted ? `refused ${predicted.refuse.code ?? predicted.refuse.status}` : 'accepted'} ${this.plan.op.t} via ${channel}`,
    )
    if ('refuse' in predicted) {
      expect(outcome.ok, `${what}: expected a refusal ${JSON.stringify(predicted.refuse)}`).toBe(false)
      const status = outcome.ok ? undefined : (outcome.status ?? statusOfCode(outcome.code))
      expect(status, what).toBe(predicted.refuse.status)
      if (predicted.refuse.code)
        expect(outcome.ok ? undefined : outcome.code, what).toBe(predicted.refuse.code)
      expect(await fetchBundle(r), `${what}: a refused write changed the map`).toEqual(r.last)
      return
    }
    expect(outcome.ok, `${what}: expected success`).toBe(true)
    commit(m, predicted, channel === 'mcp')
    if (built.kind === 'history' && outcome.ok) {
      const answer =
        built.op === 'restore'
          ? { id: built.id }
          : {
              version: version(m),
              summary: expect.stringMatching(built.op === 'undo' ? /^Undid: / : /^Redid: /),
            }
      expect(outcome.body, what).toMatchObject(answer)
    }
    const now = await fetchBundle(r)
    expect(now.version, `${what}: version`).toBe(version(m))
    expect(comparable(now, false), `${what}: the map differs from the model`).toEqual(
      comparable(m.bundle, true),
    )
    expect(bundleProblems(now), what).toEqual([])
    r.last = now
  }

  toString(): string {
    return describePlan(this.plan)
  }
}
