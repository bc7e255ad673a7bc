-- The ledger: trips, purchases, manual rates and a few ledger-wide settings.
-- Money is INTEGER minor units of its own currency; rates and percentages are exact decimal TEXT.
-- No REAL column exists anywhere.

CREATE TABLE trips (
    id              INTEGER PRIMARY KEY,
    name            TEXT    NOT NULL UNIQUE COLLATE NOCASE,
    local_currency  TEXT,                       -- default currency of `trip add`
    home_currency   TEXT    NOT NULL,           -- what reports total in
    start_date      TEXT,                       -- YYYY-MM-DD
    end_date        TEXT,
    preset          TEXT,                       -- default preset for purchases
    budget_minor    INTEGER,                    -- in home currency minor units
    created_at      TEXT    NOT NULL,
    closed_at       TEXT
);

CREATE TABLE purchases (
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
    rate_source     TEXT    NOT NULL CHECK (rate_source IN ('identity', 'manual', 'charged', 'provider', 'fallback', 'none')),
    rate_provider   TEXT,
    rate_fetched_at TEXT,
    provisional     INTEGER NOT NULL CHECK (provisional IN (0, 1)),
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL
);

-- Also covers the per-day totals of `trip report` (no table reads, no sort).
CREATE INDEX purchases_by_trip_date ON purchases (trip_id, date, home_minor);
-- Covers `trip report`: one scan of a trip's index entries, already in GROUP BY order, no table reads.
CREATE INDEX purchases_report ON purchases (
    trip_id, category, currency, rate_source, provisional, tax_included,
    home_minor, home_discount_minor, home_service_minor, home_tax_minor, home_tip_minor, total_minor, date);
CREATE INDEX purchases_provisional ON purchases (provisional, currency) WHERE provisional = 1;

-- `trip rates set CUR RATE --in HOME --date D`: 1 base = rate quote, from that date on.
CREATE TABLE manual_rates (
    base        TEXT NOT NULL,
    quote       TEXT NOT NULL,
    date        TEXT NOT NULL,
    rate        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (base, quote, date)
) WITHOUT ROWID;

-- Ledger-wide values: current_trip, home_currency (from `trip init --home`).
CREATE TABLE ledger_settings (
    key     TEXT PRIMARY KEY,
    value   TEXT NOT NULL
) WITHOUT ROWID;
