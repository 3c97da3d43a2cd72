import { apiError } from '~/http/api.server'

const notFound = () => apiError(404, 'not_found', 'No such API route.')
export const loader = notFound
export const action = notFound
