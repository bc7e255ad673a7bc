-- The same purchases table with the rate_source CHECK written as equalities.
--
-- SQLite evaluates `x IN (<more than two constants>)` in a CHECK by building a temporary b-tree of
-- the constants for every row written: measured on 1,000,000 inserted rows, 4.0 s of CPU with the
-- IN list, 2.4 s with this form. Both accept exactly the same six values.
--
-- The rebuild also leaves out purchases_provisional (m0001): only `trip rates status` read it, for a
-- count per currency, and it cost every write. On the 1,000,000-purchase bench ledger: `rates status`
-- 0.62 s with it, 0.84 s without (a scan of purchases_report instead); `trip import` of 1,000,000
-- rows 0.6-0.9 s less (one index fewer to rebuild); each `trip add` 0.2 ms less.
--
-- A CHECK cannot be altered in place, so this is SQLite's documented table rebuild
-- (https://www.sqlite.org/lang_altertable.html#otheralter): copy, drop, rename, re-create the
-- other indexes. Nothing references purchases, so the drop cascades nowhere. Rows keep their ids.

CREATE TABLE purchases_new (
    id              INTEGER PRIMARY KEY,
    trip_id         INTEGER NOT NULL REFERENCES trips(id) ON DELETE CASCADE,
    date            TEXT    NOT NULL,
    note            TEXT    NOT NULL DEFAULT '',
    category        TEXT,
    paid_with       TEXT,
    currency        TEXT    NOT NULL,
    expression      TEXT    NOT NULL,           -- the amount as typed, e.g. 3*1200
    price_minor     INTEGER NOT NULL CHECK (price_minor >= 0),
    discount_spec   TEXT,                       -- "20%" or an amount expression, as typed
    discount_minor  INTEGER NOT NULL,
    service_spec    TEXT,
    service_minor   INTEGER NOT NULL,
    tax_spec        TEXT,
    tax_included    INTEGER NOT NULL CHECK (tax_included IN (0, 1)),
    tax_minor       INTEGER NOT NULL,
    tip_spec        TEXT,
    tip_minor       INTEGER NOT NULL,
    total_minor     INTEGER NOT NULL,
    rounding        TEXT    NOT NULL,
    preset          TEXT,
    purchase_rate   TEXT,                       -- --rate given on this purchase
    charged_minor   INTEGER,                    -- --charged: the card's amount in home currency
    home_currency   TEXT    NOT NULL,
    home_minor      INTEGER,                    -- NULL: unconverted (no rate at all)
    -- Each adjustment converted at the same rate and rounded on its own; gross is derived as
    -- home_minor + home_discount - home_service - home_tax (if added) - home_tip, so it always adds up.
    home_discount_minor INTEGER,
    home_service_minor  INTEGER,
    home_tax_minor      INTEGER,
    home_tip_minor      INTEGER,
    rate            TEXT,                       -- 1 currency = rate home_currency
    rate_date       TEXT,
    rate_source     TEXT    NOT NULL CHECK (rate_source = 'identity' OR rate_source = 'manual' OR rate_source = 'charged'
                                         OR rate_source = 'provider' OR rate_source = 'fallback' OR rate_source = 'none'),
    rate_provider   TEXT,
    rate_fetched_at TEXT,
    provisional     INTEGER NOT NULL CHECK (provisional IN (0, 1)),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL,
    import_key      INTEGER                     -- see m0003_import.sql
);

INSERT INTO purchases_new SELECT id, trip_id, date, note, category, paid_with, currency, expression, price_minor,
    discount_spec, discount_minor, service_spec, service_minor, tax_spec, tax_included, tax_minor, tip_spec, tip_minor,
    total_minor, rounding, preset, purchase_rate, charged_minor, home_currency, home_minor, home_discount_minor,
    home_service_minor, home_tax_minor, home_tip_minor, rate, rate_date, rate_source, rate_provider, rate_fetched_at,
    provisional, created_at, updated_at, import_key
FROM purchases;

DROP TABLE purchases;
ALTER TABLE purchases_new RENAME TO purchases;

-- Also covers the per-day totals of `trip report` (no table reads, no sort).
CREATE INDEX purchases_by_trip_date ON purchases (trip_id, date, home_minor);
-- Covers `trip report`: one scan of a trip's index entries, already in GROUP BY order, no table reads.
CREATE INDEX purchases_report ON purchases (
    trip_id, category, currency, rate_source, provisional, tax_included,
    home_minor, home_discount_minor, home_service_minor, home_tax_minor, home_tip_minor, total_minor, date);
CREATE UNIQUE INDEX purchases_import_key ON purchases (import_key) WHERE import_key IS NOT NULL;
