-- Shared trips (`trip share`, `trip join`, `trip sync` through PostgreSQL; README, "Shared trips").
--
-- Every device keeps its whole ledger and writes offline as before. What travels is a change per
-- row: a trip, a member, a purchase (with its payers and split) or a transfer, named by a global
-- id beside the local integer id, which stays for display and is never reused.
--
-- The outbox is filled by triggers, in the same transaction as the write itself, so no write path
-- (add, edit, rm, restore, refund, import, member, transfer, trip edits) can forget it and a crash
-- can lose neither. The triggers are created by the first `trip share` or `trip join` of a ledger
-- (SyncTriggers in TripLedger/Sharing), not here: a ledger that shares nothing runs none of them,
-- so `trip add`, `trip import` and re-rating cost what they did. A trigger only notes which row changed and when (a hybrid logical
-- clock tick); what is sent is read from the row when a sync prepares the change, so an edit made
-- as delete-and-insert, or three edits before a sync, travel as one change of the row as it is.
-- Writes made while a pull applies remote changes, or while re-rating, are not local changes:
-- sync_state.applying is 1 during those transactions and the triggers stay silent.

CREATE TABLE sync_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    device      TEXT    NOT NULL,           -- this ledger's device id; a copied ledger keeps it
    hlc         INTEGER NOT NULL,           -- hybrid logical clock: milliseconds * 65536 + counter
    applying    INTEGER NOT NULL DEFAULT 0 CHECK (applying IN (0, 1))
);
INSERT INTO sync_state (id, device, hlc, applying) VALUES (1, lower(hex(randomblob(16))), 0, 0);

CREATE TABLE shared_trips (
    trip_id     INTEGER PRIMARY KEY REFERENCES trips(id) ON DELETE CASCADE,
    gid         TEXT    NOT NULL UNIQUE,
    owner       TEXT    NOT NULL,           -- the PostgreSQL role that shared it
    pulled_seq  INTEGER NOT NULL DEFAULT 0, -- the server's change log, applied up to here
    last_sync   TEXT,
    rates_sent  TEXT                        -- rate observations fetched at or before this were sent
);

-- The global id of each row that travels, and the version of it this ledger holds: the clock,
-- device and base (the version it was edited from) of the change that wrote it, and the clocks of
-- the latest delete and restore seen (a delete wins over any edit; only a restore undoes it).
CREATE TABLE sync_rows (
    kind         TEXT    NOT NULL CHECK (kind = 'trip' OR kind = 'member' OR kind = 'purchase' OR kind = 'transfer'),
    local_id     INTEGER NOT NULL,
    gid          TEXT    NOT NULL UNIQUE,
    trip_id      INTEGER NOT NULL,
    hlc          INTEGER NOT NULL DEFAULT 0,
    device       TEXT    NOT NULL DEFAULT '',
    base_hlc     INTEGER NOT NULL DEFAULT 0,
    deleted_hlc  INTEGER NOT NULL DEFAULT 0,
    restored_hlc INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (kind, local_id)
) WITHOUT ROWID;

-- One row per local write to a shared trip. change_id and the rest are filled when a sync
-- prepares the change, before it leaves; from then on it is sent as it is however often the push
-- is repeated, and the server keeps each change_id once.
CREATE TABLE sync_outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    trip_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    local_id    INTEGER NOT NULL,
    hlc         INTEGER NOT NULL,
    change_id   TEXT    UNIQUE,
    gid         TEXT,
    op          TEXT,
    base_hlc    INTEGER,
    payload     TEXT
);
CREATE INDEX sync_outbox_by_trip ON sync_outbox (trip_id, change_id);
-- Several writes to one row before a sync are collapsed into one change, found by row.
CREATE INDEX sync_outbox_by_row ON sync_outbox (kind, local_id);

-- Two versions of one row written without seeing each other: the winner is applied on every
-- device, the loser kept here until `trip resolve`.
CREATE TABLE sync_conflicts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    trip_id     INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    gid         TEXT    NOT NULL,
    local_id    INTEGER NOT NULL,
    reason      TEXT    NOT NULL,
    winner      TEXT    NOT NULL CHECK (winner = 'mine' OR winner = 'theirs'),
    mine        TEXT,
    mine_hlc    INTEGER NOT NULL,
    theirs      TEXT,
    theirs_hlc  INTEGER NOT NULL,
    theirs_by   TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    resolved_at TEXT
);
