-- A member of a shared trip removed here is kept as it was (its columns as a JSON object, as it
-- travels), so that a row another device wrote naming that member, without having seen the
-- removal, brings the member back exactly (name as typed, joined_at, id) instead of failing the
-- sync or dividing their share among the others. Purchases have the trash for this (m0006).
-- README, "Shared trips", Conflicts: a row that someone's money still names is never removed.
ALTER TABLE sync_rows ADD COLUMN removed_row TEXT;
