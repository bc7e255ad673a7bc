-- Which adjustment fields of a purchase the user set explicitly, so a preset never overwrites them.
--
-- `trip edit 1 --preset none` used to recompute every field from the new preset and so dropped a
-- `--tip 2` typed at `trip add`. The purchase now keeps the names of the fields given by flag
-- (`discount,service,tax,tax_included,tip,rounding,preset`, comma-separated, '' for none); a
-- preset fills only the others. NULL means "not recorded" (rows from before this migration, and
-- imported rows, whose export carries the specs and the preset but not this list): `trip edit`
-- then takes a field as explicit when its stored value differs from what the stored preset gives.
--
-- A trip's default presets (`trip new --preset JP --preset SG`, one per currency) are kept in
-- trips.preset as a comma-separated list of preset names; the column needs no change.
--
-- An added column goes at the end of the table, so no rebuild of purchases (and of its indexes).

ALTER TABLE purchases ADD COLUMN explicit_fields TEXT;
