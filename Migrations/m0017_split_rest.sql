-- Which amounts of a purchase's split were typed, and which member `rest` named (issue 27). The
-- weights of purchase_splits are proportions: a payer's weight is what they paid, an item's its
-- portion of the price, so an edit that changes the amount would rescale `ana=20000,ben=rest` to
-- 20,667 and 10,333. With this row an edit keeps every typed amount and gives the difference to
-- `rest`, or is refused when nothing can absorb it. Kept on this ledger only (it does not travel):
-- a purchase without a row here is one logged before, imported or from another device; its edit
-- keeps its payers' amounts and is refused when they no longer add up, and rescales items as before.
CREATE TABLE split_rest (
    purchase_id INTEGER PRIMARY KEY,
    payer_rest  INTEGER,                        -- member id of --paid-by's NAME=rest; NULL: none
    items       INTEGER NOT NULL DEFAULT 0,     -- 1: the shares are --items portions of the price
    item_rest   INTEGER                         -- member id of --items' NAME=rest; NULL: none
) WITHOUT ROWID;
