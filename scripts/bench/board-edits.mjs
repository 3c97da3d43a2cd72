// What one edit on a board costs the server, by the way it arrives (issue 34, sixth session): a
// /v1 rename (the capacity bench's write), the board page's command (what a browser sends), and
// that command followed by a reload of the board's data, which is what every browser edit cost
// until one's own edits stopped reloading the map (app/features/live/ui/own-edits.ts). One team's
// 300-card map, one member, edits one after another; the server's CPU (all its threads) per edit.
import fs from 'node:fs'
import { startApp } from './servers.mjs'
import { startSmtpSink, seedTeam, teamCsv } from './capacity-teams.mjs'
import { BROWSER_HEADERS, send } from './capacity-http.mjs'

const EDITS = Number(process.env.BENCH_EDITS ?? 300)
const ROUNDS = 3

export async function benchBoardEdits(step) {
  const sink = await startSmtpSink()
  const app = await startApp({ extraEnv: { SMTP_URL: sink.url } })
  try {
    step('board edits: seeding one team (300 features)')
    const team = await seedTeam(app.url, sink, 'edits', 0, teamCsv())
    const member = team.members[1]
    const board = `/${team.workspaceName}/projects/${team.projectId}`
    const headers = {
      ...BROWSER_HEADERS,
      Cookie: member.cookie,
      'Content-Type': 'application/json',
      Origin: app.url,
    }
    const title = () => `As a member I can do task ${Math.random().toString(16).slice(2, 10)}`
    const command = (feature) =>
      send(app.url + `${board}/commands`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'card.rename', kind: 'feature', id: feature.id, title: title() }),
      })
    const ways = {
      v1: (feature) =>
        send(app.url + `/v1/features/${feature.id}/rename`, {
          method: 'POST',
          headers: { ...headers, Workspace: team.workspaceId },
          body: JSON.stringify({ title: title() }),
        }),
      command,
      reload: async (feature) => {
        const edited = await command(feature)
        const data = await send(
          app.url + `${board}.data?_routes=${encodeURIComponent('routes/$workspace.projects.$projectId')}`,
          {
            headers: { ...BROWSER_HEADERS, Cookie: member.cookie },
          },
        )
        return data.status === 200 ? edited : data
      },
    }
    const cpuMs = () => {
      const fields = fs.readFileSync(`/proc/${app.pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return (Number(fields[11]) + Number(fields[12])) * 10
    }
    const figures = Object.fromEntries(Object.keys(ways).map((way) => [way, { cpu: [], wall: [] }]))
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [way, edit] of Object.entries(ways)) {
        step(`board edits, round ${round}: ${EDITS} × ${way}`)
        for (let i = 0; i < 20; i++) await edit(team.features[i])
        const cpuBefore = cpuMs()
        const started = performance.now()
        for (let i = 0; i < EDITS; i++) {
          const answer = await edit(team.features[(i * 7) % team.features.length])
          if (answer.status !== 200) throw new Error(`board edits: ${way} answered ${answer.status}`)
        }
        figures[way].cpu.push((cpuMs() - cpuBefore) / EDITS)
        figures[way].wall.push((performance.now() - started) / EDITS)
      }
    }
    return figures
  } finally {
    await app.stop()
    await sink.stop()
  }
}

export function printBoardEdits(figures, load) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  const base = median(figures.v1.cpu)
  const line = (label, way) =>
    `${label.padEnd(58)} ${median(figures[way].cpu).toFixed(2).padStart(6)} ms CPU (${(median(figures[way].cpu) / base).toFixed(1)}×), ` +
    `${median(figures[way].wall).toFixed(2)} ms each; rounds: ${figures[way].cpu.map((ms) => ms.toFixed(2)).join(', ')} ms`
  console.log(
    `\n## One edit on a 300-card board: the server's CPU (all threads) per edit, ${EDITS} edits a round\n`,
  )
  console.log(line("/v1 rename (the capacity bench's write)", 'v1'))
  console.log(line("the board page's command (a browser's edit now)", 'command'))
  console.log(line("the command and a reload of the board's data (until now)", 'reload'))
  console.log(`load average: ${load}`)
}
