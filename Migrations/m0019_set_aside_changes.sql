-- A pulled change that cannot be applied here is set aside instead of failing this sync and every
-- later one (README, "Shared trips"): it is rolled back alone, the pull goes on past it, and
-- `trip conflicts` lists it with why. Before, one such change stopped a trip's sync for good.
-- `seq` is its number in the trip's log: the same change on every device.
CREATE TABLE sync_set_aside (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    trip_id      INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    seq          INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    gid          TEXT    NOT NULL,
    op           TEXT    NOT NULL,
    author       TEXT    NOT NULL,
    device       TEXT    NOT NULL,
    error        TEXT    NOT NULL,
    set_aside_at TEXT    NOT NULL,
    UNIQUE (trip_id, seq)
);
