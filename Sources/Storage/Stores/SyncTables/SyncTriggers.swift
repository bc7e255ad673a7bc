import TripModel

/// The triggers that fill `sync_outbox` (m0011): every write to a row of a shared trip records a
/// clock tick and the row, in the same transaction as the write, whatever command made it.
///
/// Created by a ledger's first `trip share` or `trip join` (in its transaction), not by the
/// migration: SQLite runs a trigger's WHEN clause for every row written, and a ledger that shares
/// nothing should not pay for it on each add, import and re-rate. `IF NOT EXISTS`: later shares
/// find them in place. SQLite has no procedures, so each trigger repeats the same two statements;
/// only the table, the kind and the row's ids differ. The clock's tick is not among what they
/// repeat: each reads it from `sync_next_hlc`, its one definition (m0024), as `SyncStore.tick` does.
enum SyncTriggers {
    static let sql = """
        CREATE TRIGGER IF NOT EXISTS purchases_sync_insert AFTER INSERT ON purchases
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'purchase', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS purchases_sync_update AFTER UPDATE ON purchases
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'purchase', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS purchases_sync_delete AFTER DELETE ON purchases
        WHEN (SELECT applying FROM sync_state) = 0 AND OLD.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (OLD.trip_id, 'purchase', OLD.id, (SELECT hlc FROM sync_state));
        END;
        -- Payers and splits travel with their purchase.
        CREATE TRIGGER IF NOT EXISTS purchase_splits_sync_insert AFTER INSERT ON purchase_splits
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'purchase', NEW.purchase_id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS purchase_splits_sync_update AFTER UPDATE ON purchase_splits
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'purchase', NEW.purchase_id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS purchase_splits_sync_delete AFTER DELETE ON purchase_splits
        WHEN (SELECT applying FROM sync_state) = 0 AND OLD.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (OLD.trip_id, 'purchase', OLD.purchase_id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS members_sync_insert AFTER INSERT ON members
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'member', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS members_sync_update AFTER UPDATE ON members
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'member', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS members_sync_delete AFTER DELETE ON members
        WHEN (SELECT applying FROM sync_state) = 0 AND OLD.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (OLD.trip_id, 'member', OLD.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS transfers_sync_insert AFTER INSERT ON transfers
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'transfer', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS transfers_sync_update AFTER UPDATE ON transfers
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.trip_id, 'transfer', NEW.id, (SELECT hlc FROM sync_state));
        END;
        CREATE TRIGGER IF NOT EXISTS transfers_sync_delete AFTER DELETE ON transfers
        WHEN (SELECT applying FROM sync_state) = 0 AND OLD.trip_id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (OLD.trip_id, 'transfer', OLD.id, (SELECT hlc FROM sync_state));
        END;
        -- A trip's own fields (name, dates, presets, closing). Removing a trip here only leaves the share.
        CREATE TRIGGER IF NOT EXISTS trips_sync_update AFTER UPDATE ON trips
        WHEN (SELECT applying FROM sync_state) = 0 AND NEW.id IN (SELECT trip_id FROM shared_trips) BEGIN
            UPDATE sync_state SET hlc = (SELECT hlc FROM sync_next_hlc);
            INSERT INTO sync_outbox (trip_id, kind, local_id, hlc) VALUES (NEW.id, 'trip', NEW.id, (SELECT hlc FROM sync_state));
        END;
        """
}
