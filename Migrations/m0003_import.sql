-- `trip import`: each imported purchase carries a key that recognises it when the same file is
-- imported again. NULL for purchases typed by hand. The key is FNV-1a 64 of the normalised row and
-- its occurrence number within the file (see Importer.swift), stored as a signed 64-bit integer.

ALTER TABLE purchases ADD COLUMN import_key INTEGER;

CREATE UNIQUE INDEX purchases_import_key ON purchases (import_key) WHERE import_key IS NOT NULL;
