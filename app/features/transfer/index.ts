/** The front door of transfer/ for other features: its pure rules and types. */
export type { MapFile } from './map-file'
