-- A rate pulled from a shared trip converts that trip's purchases only (README, "Shared trips"):
-- before this, every pulled rate joined the device's own, so a grantee of one trip could re-rate
-- every trip of the device and its calculator (issue 36). Each rate table gains `trip_id`: 0 for
-- this device's own rates (`trip rates set`, `trip rates sync`), else the local id of the shared
-- trip it was pulled from. A trip's own copy of a rate is kept apart from this device's, so the
-- rate chosen for the trip is the later version of the two (manual) or the later fetch (provider),
-- as the merge of one table did.
--
-- `manual_rates.set_in`: the trip that was current when the rate was set here (NULL: none). A rate
-- set while a shared trip is current travels into that trip even when it names a currency the trip
-- has no purchase in yet; other rates travel only into trips with both of their currencies.
--
-- Rates pulled before this migration cannot be told apart from this device's own: they stay own.
-- The primary keys gain the column, which SQLite cannot alter in place: the documented rebuild
-- (https://www.sqlite.org/lang_altertable.html#otheralter). Nothing references these tables.

CREATE TABLE manual_rates_new (
    trip_id     INTEGER NOT NULL DEFAULT 0,
    base        TEXT NOT NULL,
    quote       TEXT NOT NULL,
    date        TEXT NOT NULL,
    rate        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    hlc         INTEGER NOT NULL DEFAULT 0,
    device      TEXT NOT NULL DEFAULT '',
    set_in      INTEGER,
    PRIMARY KEY (trip_id, base, quote, date)
) WITHOUT ROWID;
INSERT INTO manual_rates_new (trip_id, base, quote, date, rate, created_at, hlc, device)
SELECT 0, base, quote, date, rate, created_at, hlc, device FROM manual_rates;
DROP TABLE manual_rates;
ALTER TABLE manual_rates_new RENAME TO manual_rates;

CREATE TABLE rate_observations_new (
    trip_id     INTEGER NOT NULL DEFAULT 0,
    provider    TEXT NOT NULL,
    base        TEXT NOT NULL,
    quote       TEXT NOT NULL,
    date        TEXT NOT NULL,
    rate        TEXT NOT NULL,
    fetched_at  TEXT NOT NULL,
    PRIMARY KEY (trip_id, provider, base, quote, date)
) WITHOUT ROWID;
INSERT INTO rate_observations_new (trip_id, provider, base, quote, date, rate, fetched_at)
SELECT 0, provider, base, quote, date, rate, fetched_at FROM rate_observations;
DROP TABLE rate_observations;
ALTER TABLE rate_observations_new RENAME TO rate_observations;

CREATE TABLE provider_state_new (
    trip_id         INTEGER NOT NULL DEFAULT 0,
    provider        TEXT NOT NULL,
    url             TEXT NOT NULL,
    base            TEXT NOT NULL,
    etag            TEXT,
    last_modified   TEXT,
    latest_date     TEXT,
    fetched_at      TEXT NOT NULL,
    PRIMARY KEY (trip_id, provider, url)
) WITHOUT ROWID;
INSERT INTO provider_state_new (trip_id, provider, url, base, etag, last_modified, latest_date, fetched_at)
SELECT 0, provider, url, base, etag, last_modified, latest_date, fetched_at FROM provider_state;
DROP TABLE provider_state;
ALTER TABLE provider_state_new RENAME TO provider_state;
