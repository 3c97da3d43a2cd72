import { registerProjectField } from '../app/features/map/project-fields.server'
import { githubProjectField, trackerProjectField } from '../app/features/trackers/index.server'

/** What other features add to a map as members read it: every thread that renders maps registers these. */
export function registerMapReaders() {
  registerProjectField(githubProjectField)
  registerProjectField(trackerProjectField)
}
