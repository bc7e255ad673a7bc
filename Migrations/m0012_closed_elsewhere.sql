-- A change to a shared trip that another device closed waits in `trip conflicts` instead of being
-- sent (README, "Shared trips"). `trip resolve ID --keep mine` sends it anyway: the outbox entry it
-- writes is marked, so the next sync does not hold it again.
ALTER TABLE sync_outbox ADD COLUMN past_close INTEGER NOT NULL DEFAULT 0 CHECK (past_close IN (0, 1));
