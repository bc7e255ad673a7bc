-- Group trips: members, who paid and who shares each purchase, and transfers between members.
-- A purchase stores weights, never amounts: its shares of the total and of the home amount are
-- divided on read by the largest-remainder method (README, "Group trips"), so a re-rated home
-- amount is always divided exactly and a split never has to be rewritten.
-- AUTOINCREMENT: an id, once used, is never given again.

CREATE TABLE members (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    trip_id     INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    name        TEXT    NOT NULL COLLATE NOCASE,
    joined_at   TEXT    NOT NULL,
    UNIQUE (trip_id, name)
);

-- Who paid and who shares each purchase of a group trip: one row per purchase, so a balance over
-- 20,000 purchases reads 20,000 rows. `payers` and `shares` list `MEMBER_ID=WEIGHT` in join order,
-- comma-separated; a weight is an integer or an exact fraction `NUM/DEN` (1.5 is 3/2). A payer's
-- weight is what they paid, in minor units of the purchase's currency; a sharer's is 1 for equal
-- shares, the share, the percentage, or their item portions in minor units. The row survives the
-- purchase's removal, so a purchase brought back from the trash is split as before.
CREATE TABLE purchase_splits (
    trip_id     INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    purchase_id INTEGER NOT NULL,
    payers      TEXT    NOT NULL,
    shares      TEXT    NOT NULL,
    -- A trip's splits are one range of the key, in purchase order.
    PRIMARY KEY (trip_id, purchase_id)
) WITHOUT ROWID;

CREATE TABLE transfers (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    trip_id         INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    from_member     INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    to_member       INTEGER NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    date            TEXT    NOT NULL,
    currency        TEXT    NOT NULL,
    amount_minor    INTEGER NOT NULL CHECK (amount_minor > 0),
    home_currency   TEXT    NOT NULL,
    home_minor      INTEGER,                    -- NULL: no rate at all, never 1:1
    rate            TEXT,
    rate_date       TEXT,
    rate_source     TEXT    NOT NULL,
    rate_provider   TEXT,
    provisional     INTEGER NOT NULL CHECK (provisional IN (0, 1)),
    note            TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL
);
CREATE INDEX transfers_by_trip ON transfers (trip_id, date);
