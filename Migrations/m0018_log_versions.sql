-- Conflicts are found in the order of the server's log (README, "Conflicts"). Each device, the
-- one that wrote a change included, compares each change of a row with the version the log had
-- made the winner so far; every device reads the same log in the same order, so every device lists
-- the same conflicts, whatever order the changes reached its own ledger in.

-- The winning version of each row so far in the log's order: its clock and device, whether it is a
-- removal, and its payload (a conflict shows it). Rows of a first share's snapshot have none until
-- their first change: every later version was written by a device that had that snapshot.
CREATE TABLE sync_log_versions (
    gid     TEXT    PRIMARY KEY,
    trip_id INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    hlc     INTEGER NOT NULL,
    device  TEXT    NOT NULL,
    removed INTEGER NOT NULL,
    payload TEXT
) WITHOUT ROWID;
