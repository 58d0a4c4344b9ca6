/**
 * GitBook's Git Sync repository format, both ways, with no Git and no
 * network: a repository's files read into content and written from it.
 */
export { readRepository, type ReadOptions, type ReadRepository } from './read.js';
export { writeRepository, type WriteOptions } from './write.js';
export { REPOSITORY_LIMITS } from './limits.js';
export type { FormatProblem, FormatProblemKind } from './problems.js';
export type * from './model.js';
export { DEFAULT_CONFIG } from './model.js';
