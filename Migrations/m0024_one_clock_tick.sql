-- The clock's tick, defined once (issue 35). A shared trip's writes are stamped by a hybrid
-- logical clock: milliseconds since 1970 * 65536 + a counter, moved past every clock received
-- (`SyncStore.advanceClock`). The next value is one more than the last, or now when now is later.
-- The thirteen outbox triggers (`SyncTriggers`) and `SyncStore.tick` each spelled that formula
-- out; they all read it from this view now, so a change to the clock is one migration here.
CREATE VIEW sync_next_hlc AS
SELECT max(hlc + 1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536) AS hlc FROM sync_state;

-- The triggers of a ledger that shares a trip were created with their own copy of the formula:
-- they go, and the migrator creates them again from `SyncTriggers` in this transaction when the
-- ledger shares a trip (`SyncStore.reinstallTriggers`). A ledger that shares nothing has none, and
-- gets them at its first share or join, as before.
DROP TRIGGER IF EXISTS purchases_sync_insert;
DROP TRIGGER IF EXISTS purchases_sync_update;
DROP TRIGGER IF EXISTS purchases_sync_delete;
DROP TRIGGER IF EXISTS purchase_splits_sync_insert;
DROP TRIGGER IF EXISTS purchase_splits_sync_update;
DROP TRIGGER IF EXISTS purchase_splits_sync_delete;
DROP TRIGGER IF EXISTS members_sync_insert;
DROP TRIGGER IF EXISTS members_sync_update;
DROP TRIGGER IF EXISTS members_sync_delete;
DROP TRIGGER IF EXISTS transfers_sync_insert;
DROP TRIGGER IF EXISTS transfers_sync_update;
DROP TRIGGER IF EXISTS transfers_sync_delete;
DROP TRIGGER IF EXISTS trips_sync_update;
