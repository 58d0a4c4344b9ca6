/** What a server process that serves loads once its settings are found good (src/server.ts, loadService). */
export { buildApp } from './app.js';
export { bootstrapFirstStart } from './bootstrap.js';
export { schedulePurge } from './spaces/purge-schedule.js';
export { scheduleAuditPurge } from './audit/purge.js';
export { scheduleInsightsPurge } from './sites/insights/purge.js';
export { scheduleHostnameChecks } from './custom-hostnames/schedule.js';
export { startSpecWorker } from './specs/worker.js';
export { startGitSyncWorker } from './git-sync/processor.js';
export { startEventDeliveryWorker } from './integrations/events/deliver.js';
export { startImportRunWorker } from './imports/processor.js';
export { startGitSyncPolling } from './git-sync/installations/polling.js';
export { backfillSearchIndex } from './search/backfill.js';
