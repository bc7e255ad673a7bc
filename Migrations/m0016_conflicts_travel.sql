-- Conflicts travel (README, "Conflicts"). A conflict is the clash of two versions of one row; every
-- device that sees both versions lists it under the same global id, made of the row's global id and
-- the two versions' clocks and devices, so a resolution made on one device closes it on all.

-- The conflict's global id, and the device that wrote each version (a removal's included), so a
-- version is labelled by who wrote it rather than "mine" or "theirs" on a device that wrote neither.
ALTER TABLE sync_conflicts ADD COLUMN conflict_gid TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_conflicts ADD COLUMN mine_device TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_conflicts ADD COLUMN theirs_device TEXT NOT NULL DEFAULT '';
CREATE INDEX sync_conflicts_by_gid ON sync_conflicts (conflict_gid);

-- The device that removed a row, beside deleted_hlc: a removal is a version too.
ALTER TABLE sync_rows ADD COLUMN deleted_device TEXT NOT NULL DEFAULT '';

-- The role each device pushes as, learnt from the changes pulled: "ben (device 3f2a9c1e)".
CREATE TABLE sync_devices (
    device TEXT PRIMARY KEY,
    author TEXT NOT NULL
) WITHOUT ROWID;

-- Resolutions, made here (sent = 0 until the server has them) or pulled. One per conflict: of two
-- resolutions of one conflict the later (clock, then device) wins on every device. A resolution
-- pulled before its conflict was seen here waits in this table and closes the conflict as it is
-- listed.
CREATE TABLE sync_resolutions (
    conflict_gid TEXT    PRIMARY KEY,
    trip_id      INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    kept_hlc     INTEGER NOT NULL,
    kept_device  TEXT    NOT NULL,
    hlc          INTEGER NOT NULL,
    device       TEXT    NOT NULL,
    author       TEXT    NOT NULL,
    resolved_at  TEXT    NOT NULL,
    sent         INTEGER NOT NULL DEFAULT 1
) WITHOUT ROWID;
