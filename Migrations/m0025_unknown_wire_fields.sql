-- The fields of a travelling row that this release does not declare (issue 35, item 3): written
-- by a later release (a newer minor version of the wire format, `WireFormat`), kept here as they
-- came, one JSON object per row, and sent back with the row when this device edits it, so that a
-- device one release behind never drops what a newer one wrote. Never applied to a local column.
--
-- Keyed by the row's kind and local id, as sync_rows is; a removed row keeps them (a restore brings
-- them back with it). A pulled version without unknown fields clears them: a version wins whole.
CREATE TABLE sync_unknown_fields (
  kind     TEXT NOT NULL,
  local_id INTEGER NOT NULL,
  fields   TEXT NOT NULL CHECK (json_valid(fields) AND json_type(fields) = 'object'),
  PRIMARY KEY (kind, local_id)
) WITHOUT ROWID;
