import { gitlabProvider } from '../gitlab/gitlab-provider.server'
import { jiraProvider } from '../jira/jira-provider.server'
import type { TrackerProvider } from './provider'

/** The providers the connector serves itself (GitHub keeps its §13 worker): a fourth is one more line (ADR 38). */
export const PROVIDERS: Record<'gitlab' | 'jira', TrackerProvider> = {
  gitlab: gitlabProvider,
  jira: jiraProvider,
}

export const providerOf = (name: string): TrackerProvider => {
  const provider = PROVIDERS[name as keyof typeof PROVIDERS]
  if (!provider) throw new Error(`no tracker provider ${name}`)
  return provider
}
