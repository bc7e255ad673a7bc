-- Ids are never handed out twice, and `trip rm` can be undone.
--
-- SQLite gives a new row the largest id in its table plus one, so removing the newest purchase
-- (or trip) let the next one take its id, and `trip rm 2` run again from shell history deleted a
-- different purchase. AUTOINCREMENT would prevent that, but it cannot be added in place: it needs
-- the table rebuild m0004 did, whose cost grows with the purchases (1,000,000 rows on the bench
-- ledger) and which would collide with the columns other migrations add. Instead:
--
-- * id_high_water holds, per table, the largest id ever deleted from it, kept by the triggers
--   below, which fire for every deletion however it happens (`trip rm`, `trip delete`'s cascade,
--   `trip edit`'s replace). New ids start above max(largest id present, high water): `trip add`
--   and `trip new` pass it explicitly, `trip import` shifts its rows past it (Ledger.nextID).
--   Triggers rather than bookkeeping in Swift so that no deletion path can forget it; they cost
--   one indexed update per deleted row and nothing on insert.
-- * removed_purchases is the trash: `trip rm` moves the whole row there, as a JSON object of every
--   purchases column (so columns added by later migrations come along without changing this
--   table), under its own id; `trip restore ID` puts it back with that id.
CREATE TABLE id_high_water (
    name        TEXT PRIMARY KEY,
    last_id     INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO id_high_water (name, last_id) SELECT 'purchases', coalesce(max(id), 0) FROM purchases;
INSERT INTO id_high_water (name, last_id) SELECT 'trips', coalesce(max(id), 0) FROM trips;

CREATE TRIGGER purchases_id_high_water AFTER DELETE ON purchases BEGIN
    UPDATE id_high_water SET last_id = max(last_id, OLD.id) WHERE name = 'purchases';
END;
CREATE TRIGGER trips_id_high_water AFTER DELETE ON trips BEGIN
    UPDATE id_high_water SET last_id = max(last_id, OLD.id) WHERE name = 'trips';
END;

CREATE TABLE removed_purchases (
    id          INTEGER PRIMARY KEY,        -- the purchase's own id, kept for `trip restore`
    trip_id     INTEGER NOT NULL,           -- no foreign key: deleting the trip empties its trash below
    removed_at  TEXT    NOT NULL,
    row         TEXT    NOT NULL            -- json_object of every purchases column
);
CREATE TRIGGER trips_trash AFTER DELETE ON trips BEGIN
    DELETE FROM removed_purchases WHERE trip_id = OLD.id;
END;
