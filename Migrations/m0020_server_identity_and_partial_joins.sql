-- A shared trip remembers the server it was shared on or joined from (README, "Shared trips"):
-- the identity `trip remote init` gives a server (a random id in its `trip_ledger.meta`), and the
-- server as the user named it then, for messages. A sync to a server of another identity is
-- refused (a typo in the port or the database name can land on another server with the trip
-- schema and the same role), unless the trip is moved on purpose (`trip remote move`). Trips
-- shared before have none: they adopt the identity of the server at their next successful sync.
ALTER TABLE shared_trips ADD COLUMN server_id TEXT;
ALTER TABLE shared_trips ADD COLUMN server_name TEXT;

-- A join is many transactions (the trip first, then the log a batch at a time): one killed part
-- way leaves a trip that is only partly here, which every command that shows it must say. 0 from
-- the join's first transaction until a sync of the trip completes; trips here before were whole.
ALTER TABLE shared_trips ADD COLUMN join_complete INTEGER NOT NULL DEFAULT 1;
