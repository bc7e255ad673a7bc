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
    static let version = 8

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
        // 8: no role but the administrator reads or writes the tables: every read and write goes
        // through a function below, which answers only with the trips the role asking owns or was
        // granted, so not even the planner (`EXPLAIN ANALYZE`'s "Rows Removed by Filter") can count
        // another's rows. Roles are kept by OID (a role dropped and created again under its old
        // name is a stranger to the old one's trips). `push` appends a batch of changes after
        // checking what the server can check without reading amounts (`PushLimits` in the README:
        // kind, op, gid bound to its trip, payload a JSON object under a size limit, the device
        // registered to the role pushing, a clock at most a day ahead); a refusal is SQLSTATE
        // TL001 naming the change and why. A trip the administrator deletes is remembered and
        // never created again (TL002). `lock_holder` names the session holding a trip's lock.
        """
        CREATE FUNCTION trip_ledger.session_role() RETURNS oid
        LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
            SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = session_user
        $$;

        ALTER TABLE trip_ledger.trips ADD COLUMN owner_oid oid;
        UPDATE trip_ledger.trips t SET owner_oid = r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = t.owner;
        ALTER TABLE trip_ledger.grants ADD COLUMN role_oid oid;
        UPDATE trip_ledger.grants g SET role_oid = r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = g.role;
        DELETE FROM trip_ledger.grants WHERE role_oid IS NULL;
        ALTER TABLE trip_ledger.grants ALTER COLUMN role_oid SET NOT NULL, DROP CONSTRAINT grants_pkey, ADD PRIMARY KEY (trip_gid, role_oid);

        -- Trips the administrator deleted: never created again by a sync.
        CREATE TABLE trip_ledger.deleted_trips (gid text PRIMARY KEY, name text NOT NULL, deleted_at timestamptz NOT NULL DEFAULT now());
        CREATE FUNCTION trip_ledger.remember_deleted() RETURNS trigger
        LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            INSERT INTO trip_ledger.deleted_trips (gid, name) SELECT d.gid, d.name FROM gone d ON CONFLICT (gid) DO NOTHING;
            RETURN NULL;
        END
        $$;
        REVOKE EXECUTE ON FUNCTION trip_ledger.remember_deleted() FROM PUBLIC;
        CREATE TRIGGER trips_deleted AFTER DELETE ON trip_ledger.trips
            REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION trip_ledger.remember_deleted();

        -- Each device id belongs to the role that first pushed (or joined) with it; a device of a
        -- log written before is the role that first pushed it.
        CREATE TABLE trip_ledger.devices (device text PRIMARY KEY, role_oid oid NOT NULL, registered_at timestamptz NOT NULL DEFAULT now());
        INSERT INTO trip_ledger.devices (device, role_oid)
        SELECT DISTINCT ON (c.device) c.device, r.oid FROM trip_ledger.changes c JOIN pg_catalog.pg_roles r ON r.rolname = c.author
        ORDER BY c.device, c.committed_at, c.seq;

        -- The trip each purchase and transfer first appeared in (their global ids are UUIDs, which
        -- do not name it): a later change of the same id in another trip is refused.
        CREATE TABLE trip_ledger.gids (gid text PRIMARY KEY, trip_gid text NOT NULL);

        -- A payload as JSON, or NULL when it is not JSON (no error: one bad payload in a log must
        -- not stop every reader of it).
        CREATE FUNCTION trip_ledger.as_json(payload text) RETURNS json
        LANGUAGE plpgsql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            RETURN payload::json;
        EXCEPTION WHEN others THEN
            RETURN NULL;
        END
        $$;
        CREATE FUNCTION trip_ledger.json_field(payload text, field text) RETURNS text
        LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
            SELECT CASE WHEN json_typeof(j) = 'object' THEN j ->> field END FROM (SELECT trip_ledger.as_json(payload) AS j) p
        $$;

        INSERT INTO trip_ledger.gids (gid, trip_gid)
        SELECT DISTINCT ON (v.gid) v.gid, v.trip_gid FROM (
            SELECT c.gid, c.trip_gid, c.committed_at, c.seq FROM trip_ledger.changes c WHERE c.kind IN ('purchase', 'transfer')
            UNION ALL
            SELECT r.value ->> 0, c.trip_gid, c.committed_at, c.seq FROM trip_ledger.changes c,
                LATERAL json_array_elements(CASE WHEN json_typeof(trip_ledger.as_json(c.payload) -> 'rows') = 'array'
                                                 THEN trip_ledger.as_json(c.payload) -> 'rows' ELSE '[]' END) r
            WHERE c.kind = 'snapshot') v
        WHERE v.gid IS NOT NULL
        ORDER BY v.gid, v.committed_at, v.seq;

        CREATE FUNCTION trip_ledger.may_use(trip text, who oid) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip AND t.owner_oid = who)
                OR EXISTS (SELECT 1 FROM trip_ledger.grants g WHERE g.trip_gid = trip AND g.role_oid = who)
        $$;
        REVOKE EXECUTE ON FUNCTION trip_ledger.may_use(text, oid) FROM PUBLIC;

        CREATE OR REPLACE FUNCTION trip_ledger.can_access(trip text, who name) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT coalesce((SELECT pg_has_role(session_user, r.oid, 'MEMBER') AND trip_ledger.may_use(trip, r.oid)
                             FROM pg_catalog.pg_roles r WHERE r.rolname = who), false)
        $$;
        CREATE OR REPLACE FUNCTION trip_ledger.trips_of(who name) RETURNS SETOF text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.gid FROM trip_ledger.trips t JOIN pg_catalog.pg_roles r ON r.oid = t.owner_oid
            WHERE r.rolname = who AND pg_has_role(session_user, r.oid, 'MEMBER')
            UNION SELECT g.trip_gid FROM trip_ledger.grants g JOIN pg_catalog.pg_roles r ON r.oid = g.role_oid
            WHERE r.rolname = who AND pg_has_role(session_user, r.oid, 'MEMBER')
        $$;
        CREATE OR REPLACE FUNCTION trip_ledger.lock_trip(trip text) RETURNS bigint
        LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.last_seq FROM trip_ledger.trips t
            WHERE t.gid = trip AND trip_ledger.may_use(t.gid, trip_ledger.session_role())
            FOR UPDATE
        $$;

        REVOKE ALL ON trip_ledger.trips, trip_ledger.grants, trip_ledger.changes FROM PUBLIC;
        REVOKE ALL ON trip_ledger.deleted_trips, trip_ledger.devices, trip_ledger.gids FROM PUBLIC;

        -- Who holds a trip's lock (its row's locker, xmax, still running), for a sync whose
        -- lock_timeout ran out: `ROLE (process PID, APPLICATION)`; NULL when nobody does now.
        CREATE FUNCTION trip_ledger.lock_holder(trip text) RETURNS text
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT format('%s (process %s, %s)', coalesce(a.usename::text, 'a role'), a.pid,
                          coalesce(nullif(a.application_name, ''), 'no application name'))
            FROM trip_ledger.trips t
            JOIN pg_catalog.pg_locks l ON l.locktype = 'transactionid' AND l.transactionid = t.xmax AND l.granted
                 AND l.mode = 'ExclusiveLock'
            JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid
            WHERE t.gid = trip AND trip_ledger.may_use(t.gid, trip_ledger.session_role()) AND l.pid <> pg_backend_pid()
            LIMIT 1
        $$;

        CREATE FUNCTION trip_ledger.last_seq(trip text) RETURNS bigint
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.last_seq FROM trip_ledger.trips t WHERE t.gid = trip AND trip_ledger.may_use(t.gid, trip_ledger.session_role())
        $$;

        -- Whether the server has (or had) a trip of this id at all, visible or not: only a role
        -- that knows the id (a UUID) can ask.
        CREATE FUNCTION trip_ledger.trip_known(trip text) RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip)
                OR EXISTS (SELECT 1 FROM trip_ledger.deleted_trips d WHERE d.gid = trip)
        $$;

        CREATE FUNCTION trip_ledger.my_trips() RETURNS TABLE (gid text, name text, owner name, created_at timestamptz)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT t.gid, t.name, coalesce((SELECT r.rolname FROM pg_catalog.pg_roles r WHERE r.oid = t.owner_oid), t.owner), t.created_at
            FROM trip_ledger.trips t WHERE trip_ledger.may_use(t.gid, trip_ledger.session_role())
        $$;

        -- The trip's changes after `after`, in order, at most `lim` (NULL: all), of `kinds` and
        -- `gids` only when given; nothing for a trip the role may not use.
        CREATE FUNCTION trip_ledger.read_log(trip text, after bigint, lim integer, kinds text[] DEFAULT NULL, gids text[] DEFAULT NULL)
        RETURNS TABLE (seq bigint, change_id text, kind text, gid text, op text, hlc bigint, base_hlc bigint, device text,
                       author name, payload text, committed_at timestamptz)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
            SELECT c.seq, c.change_id, c.kind, c.gid, c.op, c.hlc, c.base_hlc, c.device, c.author, c.payload, c.committed_at
            FROM trip_ledger.changes c
            WHERE c.trip_gid = trip AND trip_ledger.may_use(trip, trip_ledger.session_role()) AND c.seq > after
              AND (kinds IS NULL OR c.kind = ANY (kinds)) AND (gids IS NULL OR c.gid = ANY (gids))
            ORDER BY c.seq LIMIT lim
        $$;

        -- A trip's row, owned by the role asking; false when it is there already, refused (TL002)
        -- when the administrator deleted it.
        CREATE FUNCTION trip_ledger.create_trip(trip text, trip_name text) RETURNS boolean
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM trip_ledger.deleted_trips d WHERE d.gid = trip) THEN
                RAISE EXCEPTION 'trip % was deleted from this server by its administrator; it is not created again', trip
                    USING ERRCODE = 'TL002';
            END IF;
            IF trip IS NULL OR octet_length(trip) NOT BETWEEN 1 AND 200 OR trip_name IS NULL OR octet_length(trip_name) > 4096 THEN
                RAISE EXCEPTION 'trip id or name is empty or too long' USING ERRCODE = 'TL001';
            END IF;
            INSERT INTO trip_ledger.trips (gid, name, owner, owner_oid) VALUES (trip, trip_name, session_user, trip_ledger.session_role())
            ON CONFLICT (gid) DO NOTHING;
            RETURN FOUND;
        END
        $$;

        -- Grants and revocations, by the trip's owner only; true when something changed.
        CREATE FUNCTION trip_ledger.grant_trip(trip text, grantee name) RETURNS boolean
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            target oid := (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = grantee);
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip AND t.owner_oid = trip_ledger.session_role()) THEN
                RAISE EXCEPTION 'only the owner of trip % grants it', trip USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF target IS NULL THEN
                RAISE EXCEPTION 'role % does not exist', grantee USING ERRCODE = 'undefined_object';
            END IF;
            INSERT INTO trip_ledger.grants (trip_gid, role, role_oid, granted_by) VALUES (trip, grantee, target, session_user)
            ON CONFLICT DO NOTHING;
            RETURN FOUND;
        END
        $$;
        CREATE FUNCTION trip_ledger.revoke_trip(trip text, grantee name) RETURNS boolean
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF NOT EXISTS (SELECT 1 FROM trip_ledger.trips t WHERE t.gid = trip AND t.owner_oid = trip_ledger.session_role()) THEN
                RAISE EXCEPTION 'only the owner of trip % revokes it', trip USING ERRCODE = 'insufficient_privilege';
            END IF;
            DELETE FROM trip_ledger.grants g WHERE g.trip_gid = trip
                AND g.role_oid = (SELECT r.oid FROM pg_catalog.pg_roles r WHERE r.rolname = grantee);
            RETURN FOUND;
        END
        $$;

        -- Registers `device` to the role asking unless another role has it; true when it is this
        -- role's.
        CREATE FUNCTION trip_ledger.register_device(device text) RETURNS boolean
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            IF device IS NULL OR octet_length(device) NOT BETWEEN 1 AND 200 THEN
                RAISE EXCEPTION 'device id % is empty or longer than 200 bytes', device USING ERRCODE = 'TL001';
            END IF;
            INSERT INTO trip_ledger.devices AS d (device, role_oid) VALUES (register_device.device, trip_ledger.session_role())
            ON CONFLICT ON CONSTRAINT devices_pkey DO NOTHING;
            RETURN (SELECT d.role_oid = trip_ledger.session_role() FROM trip_ledger.devices d WHERE d.device = register_device.device);
        END
        $$;

        -- Why the server refuses change `c` of trip `trip` pushed from `device`, or NULL. Payloads
        -- are limited to 64 KiB (a purchase with a 4,096-byte note and a dozen payers is under 2
        -- KiB), a first share's snapshot to 64 MiB (the 20,000-purchase group trip of `make bench`
        -- writes 6.8 MB); a clock is milliseconds * 65536 + counter, at most a day ahead.
        CREATE FUNCTION trip_ledger.refusal(trip text, device text, c jsonb) RETURNS text
        LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
        DECLARE
            kind text := c ->> 'kind';
            gid text := c ->> 'gid';
            op text := c ->> 'op';
            hlc text := c ->> 'hlc';
            base_hlc text := c ->> 'base_hlc';
            payload text := c ->> 'payload';
            body json;
            bound numeric := (floor(extract(epoch FROM now()) * 1000) + 86400000) * 65536 + 65535;
            kinds text[] := ARRAY['trip', 'member', 'purchase', 'transfer', 'snapshot', 'rate', 'provider', 'manual_rate',
                                  'resolution', 'held'];
            lim bigint := CASE WHEN kind = 'snapshot' THEN 64 * 1024 * 1024 ELSE 64 * 1024 END;
        BEGIN
            IF jsonb_typeof(c) IS DISTINCT FROM 'object' THEN RETURN 'a change is not a JSON object'; END IF;
            IF octet_length(c ->> 'change_id') IS NULL OR octet_length(c ->> 'change_id') NOT BETWEEN 1 AND 300 THEN
                RETURN 'its change id is empty or longer than 300 bytes';
            END IF;
            IF kind IS NULL OR NOT kind = ANY (kinds) THEN
                RETURN format('kind %s is not one of %s', coalesce(quote_literal(kind), 'null'), array_to_string(kinds, ', '));
            END IF;
            IF op IS NULL OR op NOT IN ('put', 'delete', 'restore') THEN
                RETURN format('op %s is not put, delete or restore', coalesce(quote_literal(op), 'null'));
            END IF;
            IF gid IS NULL OR octet_length(gid) NOT BETWEEN 1 AND 300 THEN RETURN 'its gid is empty or longer than 300 bytes'; END IF;
            IF hlc IS NULL OR hlc !~ '^[0-9]{1,19}$' OR base_hlc IS NULL OR base_hlc !~ '^[0-9]{1,19}$' THEN
                RETURN format('clock %s (base %s) is not a number of at most 19 digits', hlc, base_hlc);
            END IF;
            IF hlc::numeric > bound OR base_hlc::numeric > bound THEN
                RETURN format('clock %s (base %s) is more than a day ahead of the server''s time (at most %s)', hlc, base_hlc, bound);
            END IF;
            IF octet_length(payload) > lim THEN
                RETURN format('its payload of %s bytes is over the limit of %s bytes for kind %s', octet_length(payload), lim, kind);
            END IF;
            IF payload IS NULL AND op = 'put' THEN RETURN 'a put has no payload'; END IF;
            IF payload IS NOT NULL THEN
                body := trip_ledger.as_json(payload);
                IF json_typeof(body) IS DISTINCT FROM 'object' THEN RETURN 'its payload is not a JSON object'; END IF;
                IF kind = 'snapshot' AND json_typeof(body -> 'rows') IS DISTINCT FROM 'array' THEN
                    RETURN 'its payload has no array of rows';
                END IF;
            END IF;
            IF kind = 'trip' AND gid <> trip
               OR kind = 'member' AND NOT starts_with(gid, 'member:' || trip || ':')
               OR kind = 'snapshot' AND gid <> 'snapshot:' || trip
               OR kind = 'held' AND gid <> 'held:' || trip || ':' || device
               OR kind IN ('rate', 'provider', 'manual_rate', 'resolution') AND NOT starts_with(gid, kind || ':')
               OR kind IN ('purchase', 'transfer') AND starts_with(gid, 'settle:') AND NOT starts_with(gid, 'settle:' || trip || ':')
            THEN
                RETURN format('gid %s is not one of this trip''s %s ids', quote_literal(gid), kind);
            END IF;
            RETURN NULL;
        END
        $$;

        -- Appends a batch of changes (a JSON array, read once as jsonb, of {change_id, kind, gid, op, hlc, base_hlc,
        -- payload}) from `device` to the trip's log, numbered after its last, skipping change ids
        -- it holds already. Locks the trip's row first (`lock_trip`). Returns how many were new
        -- and the change ids of the new snapshots.
        CREATE FUNCTION trip_ledger.push(trip text, device text, batch jsonb) RETURNS TABLE (added bigint, snapshots text)
        LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
        #variable_conflict use_column
        DECLARE
            me oid := trip_ledger.session_role();
            last bigint;
            why record;
            ids text[];
        BEGIN
            SELECT t.last_seq INTO last FROM trip_ledger.trips t WHERE t.gid = push.trip AND trip_ledger.may_use(t.gid, me) FOR UPDATE;
            IF last IS NULL THEN
                RAISE EXCEPTION 'trip %: this role was not granted the trip (or it is no longer on the server)', push.trip
                    USING ERRCODE = 'insufficient_privilege';
            END IF;
            IF NOT trip_ledger.register_device(push.device) THEN
                RAISE EXCEPTION 'device %: registered to another role; a device id pushes only as the role that first used it', push.device
                    USING ERRCODE = 'TL001';
            END IF;
            IF jsonb_typeof(batch) IS DISTINCT FROM 'array' THEN
                RAISE EXCEPTION 'a push is a JSON array of changes' USING ERRCODE = 'TL001';
            END IF;
            SELECT e.v ->> 'change_id' AS change_id, r.reason INTO why
            FROM jsonb_array_elements(batch) WITH ORDINALITY e(v, ord), LATERAL (SELECT trip_ledger.refusal(push.trip, push.device, e.v) AS reason) r
            WHERE r.reason IS NOT NULL ORDER BY e.ord LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION 'change %: %', coalesce(why.change_id, '(none)'), why.reason USING ERRCODE = 'TL001';
            END IF;

            -- Purchases and transfers (and a snapshot's purchases) belong to the trip they first came in.
            -- Looked up by the primary key with an array: a join planned on a table's stale
            -- statistics may scan it once per row.
            ids := ARRAY(
                SELECT e.v ->> 'gid' FROM jsonb_array_elements(batch) e(v) WHERE e.v ->> 'kind' IN ('purchase', 'transfer')
                UNION ALL
                SELECT r.value ->> 0 FROM jsonb_array_elements(batch) e(v), LATERAL jsonb_array_elements((e.v ->> 'payload')::jsonb -> 'rows') r
                WHERE e.v ->> 'kind' = 'snapshot');
            INSERT INTO trip_ledger.gids AS g (gid, trip_gid) SELECT DISTINCT u.gid, push.trip FROM unnest(ids) u(gid) WHERE u.gid IS NOT NULL
            ON CONFLICT ON CONSTRAINT gids_pkey DO NOTHING;
            SELECT g.gid INTO why FROM trip_ledger.gids g WHERE g.gid = ANY (ids) AND g.trip_gid <> push.trip LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION 'change %: gid % belongs to another trip',
                    coalesce((SELECT e.v ->> 'change_id' FROM jsonb_array_elements(batch) e(v) WHERE e.v ->> 'gid' = why.gid LIMIT 1),
                             '(a snapshot row)'),
                    quote_literal(why.gid) USING ERRCODE = 'TL001';
            END IF;

            RETURN QUERY
            WITH incoming AS (
                SELECT e.ord, e.v ->> 'change_id' AS change_id, e.v ->> 'kind' AS kind, e.v ->> 'gid' AS gid, e.v ->> 'op' AS op,
                       (e.v ->> 'hlc')::bigint AS hlc, (e.v ->> 'base_hlc')::bigint AS base_hlc, e.v ->> 'payload' AS payload
                FROM jsonb_array_elements(batch) WITH ORDINALITY e(v, ord)),
            fresh AS (
                SELECT i.* FROM incoming i
                WHERE NOT EXISTS (SELECT 1 FROM trip_ledger.changes c WHERE c.trip_gid = push.trip AND c.change_id = i.change_id)),
            ins AS (
                INSERT INTO trip_ledger.changes (trip_gid, seq, change_id, kind, gid, op, hlc, base_hlc, device, author, payload)
                SELECT push.trip, last + row_number() OVER (ORDER BY f.ord), f.change_id, f.kind, f.gid, f.op, f.hlc, f.base_hlc,
                       push.device, session_user, f.payload
                FROM fresh f
                RETURNING kind, change_id)
            SELECT count(*), coalesce(string_agg(ins.change_id, ' ') FILTER (WHERE ins.kind = 'snapshot'), '') FROM ins;
        END
        $$;
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
            try requireOwnSchema(connection)
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

    /// Refuses a schema `trip_ledger` that another role owns, or holds objects of, or that `trip`
    /// did not create (objects but no `trip_ledger.meta`): its owner could drop or replace the
    /// tables of every shared trip. Says how to fix it.
    private static func requireOwnSchema(_ connection: PostgresConnection) throws(SharingError) {
        let rows = try connection.query(
            """
            SELECT pg_get_userbyid(n.nspowner) AS owner, n.nspowner = r.oid AS mine, r.rolname AS me,
                   to_regclass('trip_ledger.meta') IS NOT NULL AS ours,
                   EXISTS (SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid)
                     OR EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = n.oid) AS used,
                   (SELECT string_agg(DISTINCT pg_get_userbyid(c.relowner), ', ') FROM pg_class c
                    WHERE c.relnamespace = n.oid AND c.relowner <> r.oid) AS others
            FROM pg_namespace n, pg_roles r WHERE n.nspname = 'trip_ledger' AND r.rolname = current_user
            """)
        guard !rows.rows.isEmpty else { return }
        let owner = rows.value(0, "owner") ?? "", me = rows.value(0, "me") ?? ""
        let drop = "or drop that schema (DROP SCHEMA trip_ledger CASCADE) if it is not trip's, and run `trip remote init` again"
        if rows.value(0, "mine") != "t" {
            throw .foreignSchema(
                server: connection.displayName,
                reason: "schema trip_ledger is owned by role \(owner), not by \(me); run `trip remote init` as \(owner), \(drop)")
        }
        if let others = rows.value(0, "others") {
            throw .foreignSchema(
                server: connection.displayName, reason: "schema trip_ledger holds tables of role \(others), not only of \(me); \(drop)")
        }
        if rows.value(0, "ours") != "t" && rows.value(0, "used") == "t" {
            throw .foreignSchema(
                server: connection.displayName,
                reason: "schema trip_ledger was not created by trip (it holds other objects and no trip_ledger.meta); "
                    + "rename it (ALTER SCHEMA trip_ledger RENAME TO …) \(drop)")
        }
    }
}
