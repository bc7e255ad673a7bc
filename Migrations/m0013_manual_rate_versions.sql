-- Rates set by hand (`trip rates set`) travel with shared trips, so that every device converts the
-- trip's purchases alike (README, "Shared trips"). Each keeps the clock and device of the write
-- that set it, as a travelling row's version does: of two rates set for one pair (either way round)
-- and one day, every device keeps the later clock, then the greater device id, whatever order they
-- arrive in. Rates set before this migration have clock 0: any later one wins over them.
ALTER TABLE manual_rates ADD COLUMN hlc INTEGER NOT NULL DEFAULT 0;
ALTER TABLE manual_rates ADD COLUMN device TEXT NOT NULL DEFAULT '';
