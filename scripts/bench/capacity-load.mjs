// The capacity bench's workload (issue 34): every member of every team has the board open (one §6
// stream each), writes about every 10 s (60 % rename, 20 % size, 10 % move in its cell, 10 %
// comment) and reloads the board about every 2 minutes: its page (`reload: 'page'`) or, as the live
// board, scripts, MCP and the trackers do, its JSON (`reload: 'api'`, GET /v1/projects/{id} asked as
// a browser asks, gzip and br; issue 49). Each member writes only its own fifth of
// the map's features and has one write in flight at a time, so a change event is matched to its
// write by the writer's name and the entity's id, on each other member's stream.
import crypto from 'node:crypto'
import { BROWSER_HEADERS, PAGE_ACCEPT, openStream, send } from './capacity-http.mjs'

export const WRITE_EVERY_MS = 10_000
export const RELOAD_EVERY_MS = 120_000
/** A change event not seen this long after its write's answer counts as missed. */
const EVENT_DEADLINE_MS = 10_000
/** Rename, size, move, comment: 60 / 20 / 10 / 10 %. */
const MIX = [
  ['rename', 0.6],
  ['size', 0.8],
  ['move', 0.9],
  ['comment', 1],
]

/** Uniform jitter: `mean` ± 50 %. */
const jitter = (mean) => mean * (0.5 + Math.random())
const pick = (list) => list[Math.floor(Math.random() * list.length)]

/** What one measured window saw. Samples count when their request was sent inside the window. */
export class Window {
  constructor(label) {
    this.label = label
    this.startedAt = performance.now()
    this.endedAt = null
    this.writeMs = []
    this.lagMs = []
    this.loadMs = []
    this.kinds = { rename: 0, size: 0, move: 0, comment: 0 }
    this.errors = { write: 0, load: 0, stream: 0, missedEvents: 0 }
    this.errorSamples = []
    this.skippedLags = 0 // the other member was reloading: not a miss, not a lag
  }

  error(kind, detail) {
    this.errors[kind] += 1
    if (this.errorSamples.length < 5) this.errorSamples.push(`${kind}: ${detail}`)
  }

  get seconds() {
    return ((this.endedAt ?? performance.now()) - this.startedAt) / 1000
  }

  get errorCount() {
    return Object.values(this.errors).reduce((sum, n) => sum + n, 0)
  }
}

/** All teams' members and what they do; `window` (a Window or null) collects the figures. */
export class Workload {
  constructor(origin, { reload = 'page' } = {}) {
    this.origin = origin
    /** How a member reloads its board: the page, or the map's JSON through the API. */
    this.reloadShape = reload
    this.teams = []
    this.window = null
    this.running = false
    /** Each start() begins a generation; a timer or a request of an earlier one schedules nothing. */
    this.generation = 0
    this.closed = false
    this.pendingCount = 0
    this.sweeper = setInterval(() => this.sweep(), 1000)
  }

  /** Adds seeded teams and opens every new member's stream (`parallel` at a time). */
  async addTeams(seeded, parallel = 50) {
    const members = []
    for (const team of seeded) {
      const live = { ...team, pending: [] }
      live.members = team.members.map((m, i) => ({
        ...m,
        team: live,
        index: i,
        stream: null,
        epoch: 0,
        lastId: null,
        timers: [],
        features: team.features.filter((_, f) => f % team.members.length === i),
      }))
      this.teams.push(live)
      members.push(...live.members)
    }
    let next = 0
    const worker = async () => {
      while (next < members.length) await this.connect(members[next++])
    }
    await Promise.all(Array.from({ length: parallel }, worker))
  }

  get memberCount() {
    return this.teams.reduce((sum, t) => sum + t.members.length, 0)
  }

  /**
   * Starts every member's writes and reloads, the first of each at a random point of a jittered
   * interval (as if each member had been at it for a while, so the rate is steady at once).
   */
  start() {
    this.running = true
    const gen = ++this.generation
    for (const team of this.teams)
      for (const member of team.members) {
        this.later(member, gen, Math.random() * jitter(WRITE_EVERY_MS), () => this.write(member, gen))
        this.later(member, gen, Math.random() * jitter(RELOAD_EVERY_MS), () => this.reload(member, gen))
      }
  }

  /** Stops scheduling (requests in flight finish); streams stay open. */
  stop() {
    this.running = false
    for (const team of this.teams) for (const member of team.members) member.timers.forEach(clearTimeout)
  }

  async close() {
    this.closed = true
    this.stop()
    clearInterval(this.sweeper)
    for (const team of this.teams) for (const member of team.members) member.stream?.close()
  }

  later(member, gen, ms, task) {
    const current = () => this.running && gen === this.generation
    if (!current()) return
    const timer = setTimeout(() => {
      member.timers = member.timers.filter((t) => t !== timer)
      if (current()) task()
    }, ms)
    member.timers.push(timer)
  }

  headers(member) {
    return { ...BROWSER_HEADERS, Cookie: member.cookie, Origin: this.origin }
  }

  /** Opens the member's stream, from its last event when it had one (what EventSource sends). */
  async connect(member) {
    if (this.closed) return
    const epoch = ++member.epoch
    const headers = this.headers(member)
    if (member.lastId !== null) headers['Last-Event-ID'] = String(member.lastId)
    const stream = openStream(`${this.origin}/v1/projects/${member.team.projectId}/events`, headers, {
      onEvent: (type, data, id, at) => {
        if (id !== null) member.lastId = id
        // The version the board has: a reload asks for what came after it, as the page would.
        if (type === 'ready' && member.lastId === null) member.lastId = JSON.parse(data).version
        if (type === 'change' && member.epoch === epoch) this.arrived(member, data, at)
      },
      onEnd: (reason) => {
        if (member.epoch !== epoch) return
        this.window?.error('stream', `${member.name}: ${reason}`)
        member.stream = null
        this.settleTeam(member.team)
        setTimeout(() => this.connect(member), 1000)
      },
    })
    member.stream = stream
    try {
      await stream.opened
    } catch (error) {
      if (member.epoch !== epoch) return
      member.stream = null
      this.window?.error('stream', `${member.name}: ${error.message}`)
      setTimeout(() => this.connect(member), 1000)
    }
  }

  /** The next write of the member's own features, sent about WRITE_EVERY_MS after the last. */
  async write(member, gen) {
    const sentAt = performance.now()
    const feature = pick(member.features)
    const roll = Math.random()
    const kind = MIX.find(([, upTo]) => roll < upTo)[0]
    let path
    let body
    let target = feature.id
    if (kind === 'rename') {
      path = `/v1/features/${feature.id}/rename`
      body = { title: `As a member I can do task ${crypto.randomBytes(4).toString('hex')}` }
    } else if (kind === 'size') {
      feature.estimate = (feature.estimate + 1 + Math.floor(Math.random() * 12)) % 13
      path = `/v1/features/${feature.id}/estimate`
      body = { estimate: feature.estimate }
    } else if (kind === 'move') {
      path = `/v1/features/${feature.id}/move`
      body = {
        toSubWorkflowId: feature.subWorkflowId,
        toMilestoneId: feature.milestoneId,
        index: Math.round(Math.random()),
      }
    } else {
      target = crypto.randomUUID()
      path = `/v1/featurecomments/${target}`
      body = { featureId: feature.id, post: 'Looks right; check the edge cases first.' }
    }
    const team = member.team
    const window = this.window
    // Who should see it: every other member whose stream is open now (a reload in between skips it).
    const expect = new Map(team.members.filter((m) => m !== member && m.stream).map((m) => [m, m.epoch]))
    const pending = { member, target, window, sentAt, answeredAt: null, expect, arrivals: new Map() }
    team.pending.push(pending)
    this.pendingCount += 1
    const headers = {
      ...this.headers(member),
      Workspace: team.workspaceId,
      'Content-Type': 'application/json',
      Accept: 'application/json',
    }
    const answer = await send(this.origin + path, { method: 'POST', headers, body: JSON.stringify(body) })
    pending.answeredAt = performance.now()
    if (answer.status === 200) {
      if (window) {
        window.writeMs.push(answer.ms)
        window.kinds[kind] += 1
      }
      this.settle(pending)
    } else {
      window?.error('write', `${kind} ${answer.status} ${answer.error ?? ''}`.trim())
      this.drop(pending)
    }
    const wait = Math.max(0, sentAt + jitter(WRITE_EVERY_MS) - performance.now())
    this.later(member, gen, wait, () => this.write(member, gen))
  }

  /** A board reload: the stream closes, the page loads as a browser asks for it, the stream reopens. */
  async reload(member, gen) {
    const window = this.window
    member.stream?.close()
    member.stream = null
    member.epoch += 1
    this.settleTeam(member.team)
    const team = member.team
    const answer =
      this.reloadShape === 'api'
        ? await send(`${this.origin}/v1/projects/${team.projectId}`, {
            headers: { ...this.headers(member), Workspace: team.workspaceId, Accept: 'application/json' },
          })
        : await send(`${this.origin}/${team.workspaceName}/projects/${team.projectId}`, {
            headers: { ...this.headers(member), Accept: PAGE_ACCEPT },
          })
    if (answer.status === 200) window?.loadMs.push(answer.ms)
    else window?.error('load', `${answer.status} ${answer.error ?? ''}`.trim())
    await this.connect(member)
    this.later(member, gen, jitter(RELOAD_EVERY_MS), () => this.reload(member, gen))
  }

  /** A change event on `receiver`'s stream: the write it answers, if one is waiting for it. */
  arrived(receiver, data, at) {
    const team = receiver.team
    if (team.pending.length === 0) return
    const event = JSON.parse(data)
    const by = event.by?.name
    for (const pending of team.pending) {
      if (pending.member.name !== by || pending.member === receiver || pending.arrivals.has(receiver))
        continue
      if (!event.changes.some((c) => (c.entity?.id ?? c.id) === pending.target)) continue
      pending.arrivals.set(receiver, at)
      this.settle(pending)
      return
    }
  }

  /** Files a write's lags once it is answered and every member expected to see it did. */
  settle(pending, now = performance.now()) {
    if (pending.answeredAt === null) return
    const overdue = now - pending.answeredAt > EVENT_DEADLINE_MS
    const waiting = new Set(
      [...pending.expect]
        .filter(([m, epoch]) => !pending.arrivals.has(m) && m.epoch === epoch && m.stream)
        .map(([m]) => m),
    )
    if (waiting.size > 0 && !overdue) return
    const { window } = pending
    if (window) {
      for (const [m] of pending.expect) {
        const at = pending.arrivals.get(m)
        if (at !== undefined) window.lagMs.push(Math.max(0, at - pending.answeredAt))
        else if (waiting.has(m)) window.error('missedEvents', `${pending.member.name} → ${m.name}`)
        else window.skippedLags += 1
      }
    }
    this.drop(pending)
  }

  settleTeam(team) {
    for (const pending of [...team.pending]) this.settle(pending)
  }

  drop(pending) {
    const list = pending.member.team.pending
    const at = list.indexOf(pending)
    if (at === -1) return
    list.splice(at, 1)
    this.pendingCount -= 1
  }

  sweep() {
    const now = performance.now()
    for (const team of this.teams) for (const pending of [...team.pending]) this.settle(pending, now)
  }

  /** Waits until every write of `window` has its events or is past the deadline. */
  async drain(window) {
    const deadline = performance.now() + EVENT_DEADLINE_MS + 2000
    const open = () => this.teams.some((t) => t.pending.some((p) => p.window === window))
    while (open() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
