-- The provider rate cache filled by `trip rates sync`.
-- One row per provider, base, quote and observation date; the rate is exact decimal TEXT as published.

CREATE TABLE rate_observations (
    provider    TEXT NOT NULL,
    base        TEXT NOT NULL,
    quote       TEXT NOT NULL,
    date        TEXT NOT NULL,      -- the provider's observation (publication) date
    rate        TEXT NOT NULL,      -- 1 base = rate quote
    fetched_at  TEXT NOT NULL,
    PRIMARY KEY (provider, base, quote, date)
) WITHOUT ROWID;

-- Per request URL: the validators for a conditional GET, the base its rates are in, and the newest
-- date the provider published. Small: the rate resolver reads bases and "has a later date been
-- published?" here instead of scanning rate_observations.
CREATE TABLE provider_state (
    provider        TEXT NOT NULL,
    url             TEXT NOT NULL,
    base            TEXT NOT NULL,
    etag            TEXT,
    last_modified   TEXT,
    latest_date     TEXT,
    fetched_at      TEXT NOT NULL,
    PRIMARY KEY (provider, url)
) WITHOUT ROWID;
