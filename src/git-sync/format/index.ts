/**
 * GitBook's Git Sync repository format, both ways, with no Git and no
 * network: a repository's files read into content and written from it, and
 * the two adapters to the service (the change-request writes that make the
 * content in a space, and a space's content at a revision).
 */
export { readRepository, type ReadOptions, type ReadRepository } from './read.js';
export { writeRepository, type WriteOptions } from './write.js';
export {
  bindWrite,
  changesOfRepository,
  filesToUpload,
  recordCreatedPages,
  writesOf,
  type ChangeOptions,
} from './changes.js';
export { repositoryOfSpace, spaceRepository, type SpaceReaders, type SpaceRepository } from './space-repository.js';
export { unchangedSince, type RepositoryFingerprints, type UnchangedSince } from './fingerprints.js';
export { REPOSITORY_LIMITS } from './limits.js';
export type { FormatProblem, FormatProblemKind } from './problems.js';
export type * from './model.js';
export { DEFAULT_CONFIG } from './model.js';
