-- The rows of a shared trip that a removal reached (a removal that lost to a row naming them is
-- applied once nothing does; Ledger.applyWaitingRemovals, after a sync that changed something).
-- Without this index that question scanned every row of sync_rows: 27 ms on a 20,000-purchase
-- trip (make bench, the sharing rows), where the rows it looks for are a handful.
CREATE INDEX sync_rows_removed ON sync_rows (trip_id) WHERE deleted_hlc > restored_hlc;
