/// The tables of shared trips on the PostgreSQL server, in schema `trip_ledger`, and their
/// versions. `trip remote init` creates or upgrades them; every other command only checks the
/// version: too old asks for `trip remote init`, too new is refused and left untouched.
///
/// Access is PostgreSQL's own: each traveller logs in as their own role; row-level security lets
/// a role see and change only the trips it owns or was granted (`trip share NAME --with ROLE`).
/// The role that ran `trip remote init` owns the tables and, as their owner, is not bound by the
/// policies: it is the administrator.
enum ServerSchema {
    /// The version this `trip` writes and reads.
    static let version = 7

    /// Upgrade steps; step i brings the schema from version i to i + 1.
    static let steps: [String] = [
        """
        CREATE TABLE trip_ledger.trips (
            gid         text        PRIMARY KEY,
            name        text        NOT NULL,
            owner       name        NOT NULL DEFAULT current_user,
            -- The last sequence number given in this trip's change log; the row is locked by every
            -- push, so numbers are given in commit order without gaps.
            last_seq    bigint      NOT NULL DEFAULT 0,
            created_at  timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX trips_by_name ON trip_ledger.trips (lower(name));

        CREATE TABLE trip_ledger.grants (
            trip_gid    text NOT NULL REFERENCES trip_ledger.trips (gid) ON DELETE CASCADE,
            role        name NOT NULL,
            granted_by  name NOT NULL DEFAULT current_user,
            PRIMARY KEY (trip_gid, role)
        );

        -- Each trip's changes: append-only, numbered 1, 2, 3… in commit order.
        CREATE TABLE trip_ledger.changes (
            trip_gid     text        NOT NULL REFERENCES trip_ledger.trips (gid) ON DELETE CASCADE,
            seq          bigint      NOT NULL,
            change_id    text        NOT NULL,
            kind         text        NOT NULL,
            gid          text        NOT NULL,
            op           text        NOT NULL CHECK (op IN ('put', 'delete', 'restore')),
            hlc          bigint      NOT NULL,
            base_hlc     bigint      NOT NULL,
            device       text        NOT NULL,
            author       name        NOT NULL DEFAULT current_user,
            -- Kept as the device wrote it (text, not jsonb): every device reads the same bytes.
            payload      text,
            committed_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (trip_gid, seq),
            UNIQUE (trip_gid, change_id)
        );

        -- SECURITY DEFINER so that the policies can read grants and trips without each
        -- recursing into the other's policy; the role asking is passed in, as seen by the caller.
        CREATE FUNCTION trip_ledger.can_access(trip text, who name) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip AND t.owner = who)
                OR EXISTS (SELECT 1 FROM trip_ledger.grants g WHERE g.trip_gid = trip AND g.role = who)
        $$;

        ALTER TABLE trip_ledger.trips ENABLE ROW LEVEL SECURITY;
        -- The owner test is written out: a row being inserted is not yet visible to can_access.
        CREATE POLICY trips_read ON trip_ledger.trips FOR SELECT USING (owner = current_user OR trip_ledger.can_access(gid, current_user));
        CREATE POLICY trips_create ON trip_ledger.trips FOR INSERT WITH CHECK (owner = current_user);
        CREATE POLICY trips_number ON trip_ledger.trips FOR UPDATE
            USING (trip_ledger.can_access(gid, current_user)) WITH CHECK (trip_ledger.can_access(gid, current_user));

        ALTER TABLE trip_ledger.grants ENABLE ROW LEVEL SECURITY;
        CREATE POLICY grants_read ON trip_ledger.grants FOR SELECT USING (trip_ledger.can_access(trip_gid, current_user));
        CREATE POLICY grants_give ON trip_ledger.grants FOR INSERT
            WITH CHECK (trip_ledger.can_access(trip_gid, current_user) AND granted_by = current_user);

        ALTER TABLE trip_ledger.changes ENABLE ROW LEVEL SECURITY;
        CREATE POLICY changes_read ON trip_ledger.changes FOR SELECT USING (trip_ledger.can_access(trip_gid, current_user));
        CREATE POLICY changes_append ON trip_ledger.changes FOR INSERT
            WITH CHECK (trip_ledger.can_access(trip_gid, current_user) AND author = current_user);

        GRANT USAGE ON SCHEMA trip_ledger TO PUBLIC;
        GRANT SELECT ON trip_ledger.meta TO PUBLIC;
        GRANT SELECT, INSERT ON trip_ledger.trips, trip_ledger.grants, trip_ledger.changes TO PUBLIC;
        GRANT UPDATE (last_seq) ON trip_ledger.trips TO PUBLIC;
        GRANT EXECUTE ON FUNCTION trip_ledger.can_access(text, name) TO PUBLIC;
        """,
        // 2: the change log's policies ask once per statement which trips the role may use,
        // instead of once per row: `can_access` is SECURITY DEFINER, so PostgreSQL cannot inline
        // it, and a first share or a join moves every change of the trip through these policies.
        // The sub-select makes the planner evaluate the set once and hash it.
        """
        CREATE FUNCTION trip_ledger.trips_of(who name) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.gid FROM trip_ledger.trips t WHERE t.owner = who
            UNION SELECT g.trip_gid FROM trip_ledger.grants g WHERE g.role = who
        $$;
        GRANT EXECUTE ON FUNCTION trip_ledger.trips_of(name) TO PUBLIC;

        DROP POLICY changes_read ON trip_ledger.changes;
        DROP POLICY changes_append ON trip_ledger.changes;
        CREATE POLICY changes_read ON trip_ledger.changes FOR SELECT
            USING (trip_gid IN (SELECT trip_ledger.trips_of(current_user)));
        CREATE POLICY changes_append ON trip_ledger.changes FOR INSERT
            WITH CHECK (trip_gid IN (SELECT trip_ledger.trips_of(current_user)) AND author = current_user);

        -- The foreign key was checked once per inserted row and adds nothing: a push locks its
        -- trip's row first, and the append policy admits only trips that exist and that the role
        -- may use.
        ALTER TABLE trip_ledger.changes DROP CONSTRAINT changes_trip_gid_fkey;
        """,
        // 3: payloads name the members of their own trip as `@NAME` instead of by the whole
        // global id. The tables do not change; the version does, so that a `trip` that cannot
        // read such payloads refuses the server instead of misreading them. Payloads written
        // before keep the whole ids, which this version still reads.
        """
        COMMENT ON COLUMN trip_ledger.changes.payload IS
            'The row as JSON, as the device wrote it. From schema 3, members of the trip are named @NAME (member:TRIP:NAME before).';
        """,
        // 4: a first share sends its purchases as one change of kind `snapshot` (rows of values
        // under one column list) instead of one change each. The tables do not change; the
        // version does, so that a `trip` that would skip a kind it does not know refuses the
        // server instead of missing every purchase of a shared trip.
        """
        COMMENT ON COLUMN trip_ledger.changes.kind IS
            'trip, member, purchase, transfer, rate, provider; from schema 4 also snapshot: a first share''s purchases, {"count", "columns", "rows"}.';
        """,
        // 5: rates set by hand travel as changes of kind `manual_rate`, each version once. The
        // tables do not change; the version does, so that a `trip` that would skip them, and
        // convert the trip's purchases differently from every other device, refuses the server.
        """
        COMMENT ON COLUMN trip_ledger.changes.kind IS
            'trip, member, purchase, transfer, rate, provider; from schema 4 also snapshot: a first share''s purchases, {"count", "columns", "rows"}; from schema 5 also manual_rate: a rate set by hand, {"base", "quote", "date", "rate", "created_at", "hlc", "device"}.';
        """,
        // 6: each role reaches exactly its own trips. Before, any role could ask `trips_of` and
        // `can_access` about another role (whose trips, who is in a trip); a grantee could set a
        // trip's `last_seq` (to 0: every later push collides) and append changes numbered as it
        // liked; and any role with access could grant the trip on. Now:
        // - `can_access` and `trips_of` answer only for a role the session may act as (itself or a
        //   role it is a member of), and nothing otherwise; the policies still ask `trips_of` once
        //   per statement.
        // - Only the administrator updates or deletes trips (their sequence, owner or name) and
        //   changes, and updates grants. A push locks its trip's row through `lock_trip` (FOR
        //   UPDATE needs UPDATE privilege), which returns the last number, or NULL for a trip the
        //   session's role neither owns nor was granted.
        // - A trigger numbers the log: the changes one statement appends to a trip must be
        //   numbered last_seq + 1 … last_seq + n, and it advances last_seq to the last of them,
        //   only from the value they follow (a push committed meanwhile makes it fail); otherwise
        //   SQLSTATE 23514 (check_violation, constraint `changes_numbered`).
        // - Only a trip's owner grants it (INSERT) and revokes it (DELETE on grants).
        // A last_seq set back below the log's last number (the defect above) is repaired.
        """
        CREATE OR REPLACE FUNCTION trip_ledger.can_access(trip text, who name) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT pg_has_role(session_user, who, 'MEMBER')
               AND (EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip AND t.owner = who)
                    OR EXISTS (SELECT 1 FROM trip_ledger.grants g WHERE g.trip_gid = trip AND g.role = who))
        $$;
        CREATE OR REPLACE FUNCTION trip_ledger.trips_of(who name) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.gid FROM trip_ledger.trips t WHERE t.owner = who AND pg_has_role(session_user, who, 'MEMBER')
            UNION SELECT g.trip_gid FROM trip_ledger.grants g WHERE g.role = who AND pg_has_role(session_user, who, 'MEMBER')
        $$;

        REVOKE UPDATE, DELETE, TRUNCATE ON trip_ledger.trips, trip_ledger.grants, trip_ledger.changes FROM PUBLIC;
        REVOKE UPDATE (last_seq) ON trip_ledger.trips FROM PUBLIC;
        DROP POLICY trips_number ON trip_ledger.trips;

        CREATE FUNCTION trip_ledger.lock_trip(trip text) RETURNS bigint
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.last_seq FROM trip_ledger.trips t
            WHERE t.gid = trip AND trip_ledger.can_access(t.gid, session_user)
            FOR UPDATE
        $$;
        REVOKE EXECUTE ON FUNCTION trip_ledger.lock_trip(text) FROM PUBLIC;
        GRANT EXECUTE ON FUNCTION trip_ledger.lock_trip(text) TO PUBLIC;

        CREATE FUNCTION trip_ledger.number_changes() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            r record;
            last bigint;
        BEGIN
            FOR r IN SELECT a.trip_gid, count(*) AS n, count(DISTINCT a.seq) AS distinct_n, min(a.seq) AS lo, max(a.seq) AS hi
                     FROM added a GROUP BY a.trip_gid ORDER BY a.trip_gid LOOP
                IF r.distinct_n = r.n AND r.hi - r.lo + 1 = r.n THEN
                    UPDATE trip_ledger.trips SET last_seq = r.hi WHERE gid = r.trip_gid AND last_seq = r.lo - 1;
                    CONTINUE WHEN FOUND;
                END IF;
                SELECT t.last_seq INTO last FROM trip_ledger.trips t WHERE t.gid = r.trip_gid;
                IF last IS NULL THEN
                    RAISE EXCEPTION 'changes of trip %: no such trip on the server', r.trip_gid
                        USING ERRCODE = 'check_violation', CONSTRAINT = 'changes_numbered';
                END IF;
                RAISE EXCEPTION 'changes of trip % must be numbered % to % (after its last, %), not % to %',
                    r.trip_gid, last + 1, last + r.n, last, r.lo, r.hi
                    USING ERRCODE = 'check_violation', CONSTRAINT = 'changes_numbered',
                          HINT = 'lock the trip with trip_ledger.lock_trip(gid) and number after the last_seq it returns';
            END LOOP;
            RETURN NULL;
        END
        $$;
        REVOKE EXECUTE ON FUNCTION trip_ledger.number_changes() FROM PUBLIC;
        CREATE TRIGGER changes_numbered AFTER INSERT ON trip_ledger.changes
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION trip_ledger.number_changes();

        DROP POLICY grants_give ON trip_ledger.grants;
        CREATE POLICY grants_give ON trip_ledger.grants FOR INSERT
            WITH CHECK (trip_gid IN (SELECT t.gid FROM trip_ledger.trips t WHERE t.owner = current_user) AND granted_by = current_user);
        CREATE POLICY grants_revoke ON trip_ledger.grants FOR DELETE
            USING (trip_gid IN (SELECT t.gid FROM trip_ledger.trips t WHERE t.owner = current_user));
        GRANT DELETE ON trip_ledger.grants TO PUBLIC;

        UPDATE trip_ledger.trips t SET last_seq = c.hi
        FROM (SELECT trip_gid, max(seq) AS hi FROM trip_ledger.changes GROUP BY trip_gid) c
        WHERE c.trip_gid = t.gid AND t.last_seq < c.hi;
        """,
        // 7: conflicts travel. `trip resolve` sends a change of kind `resolution` naming the
        // conflict's global id and the version kept, and every device that lists the conflict
        // closes it. The tables do not change; the version does, so that a `trip` that would skip
        // resolutions (and keep listing resolved conflicts as open) refuses the server.
        """
        COMMENT ON COLUMN trip_ledger.changes.kind IS
            'trip, member, purchase, transfer, rate, provider; from schema 4 also snapshot: a first share''s purchases, {"count", "columns", "rows"}; from schema 5 also manual_rate: a rate set by hand, {"base", "quote", "date", "rate", "created_at", "hlc", "device"}; from schema 7 also resolution: a conflict resolved, {"conflict", "kept_hlc", "kept_device"}.';
        """,
    ]

    /// The server's schema version (0: none).
    static func installed(_ connection: PostgresConnection) throws(SharingError) -> Int {
        let exists = try connection.query("SELECT to_regclass('trip_ledger.meta') IS NOT NULL AS present")
        guard exists.value(0, "present") == "t" else { return 0 }
        let rows = try connection.query("SELECT value FROM trip_ledger.meta WHERE key = 'schema_version'")
        return rows.rows.isEmpty ? 0 : Int(rows.value(0, "value") ?? "0") ?? 0
    }

    /// Fails unless the server has exactly this version.
    /// The identity `trip remote init` gave this server (`install`), or `nil` for a server set
    /// up before identities, until its next `trip remote init`. A shared trip remembers it, so
    /// that a sync to another server, reached by a typo in the port or the database name, is
    /// refused (`SharingError.otherServer`).
    static func identity(_ connection: PostgresConnection) throws(SharingError) -> String? {
        try connection.query("SELECT value FROM trip_ledger.meta WHERE key = 'server_id'").rows.first.flatMap { $0[0] }
    }

    static func check(_ connection: PostgresConnection) throws(SharingError) {
        let found = try installed(connection)
        if found < version { throw .schemaTooOld(server: connection.displayName, found: found, needed: version) }
        if found > version { throw .schemaTooNew(server: connection.displayName, found: found, known: version) }
    }

    /// `trip remote init`: creates or upgrades the schema in one transaction, under a lock, so two
    /// runs at once do it once. Returns the version before and after.
    static func install(_ connection: PostgresConnection) throws(SharingError) -> (from: Int, to: Int) {
        try connection.query("BEGIN")
        do throws(SharingError) {
            try connection.query("CREATE SCHEMA IF NOT EXISTS trip_ledger")
            try connection.query("CREATE TABLE IF NOT EXISTS trip_ledger.meta (key text PRIMARY KEY, value text NOT NULL)")
            try connection.query("LOCK TABLE trip_ledger.meta IN EXCLUSIVE MODE")
            let found = try installed(connection)
            if found > version {
                try connection.query("ROLLBACK")
                throw SharingError.schemaTooNew(server: connection.displayName, found: found, known: version)
            }
            for step in steps.dropFirst(found) { try connection.script(step) }
            try connection.query(
                """
                INSERT INTO trip_ledger.meta (key, value) VALUES ('schema_version', $1)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, [String(version)])
            // The server's identity, made once: a server set up before identities gets one at its
            // next `trip remote init`, and keeps it through every later one (and through a dump
            // and restore, which is the same server moved).
            try connection.query(
                "INSERT INTO trip_ledger.meta (key, value) VALUES ('server_id', gen_random_uuid()::text) ON CONFLICT (key) DO NOTHING")
            try connection.query("COMMIT")
            return (found, version)
        } catch {
            _ = try? connection.query("ROLLBACK")
            throw error
        }
    }
}
