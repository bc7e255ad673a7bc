-- Refunds and credits (issue 10, group 3): money coming back is a row of `purchases` with a kind.
--
-- Amounts stay non-negative in storage (price_minor keeps its CHECK >= 0 from m0004); `kind` gives
-- the sign: 'purchase' adds, 'refund' and 'credit' subtract. A refund names the purchase it refunds
-- in `refund_of` (same trip, same currency); a credit is money received with no purchase.
--
-- ADD COLUMN, not a rebuild: a ledger can hold 1,000,000 purchases. The two report indexes are
-- recreated with `kind` as their last column so `trip report` still sums over one covering index
-- scan (kind only signs the sums; it adds no grouping key, so the scan order is unchanged).
ALTER TABLE purchases ADD COLUMN kind TEXT NOT NULL DEFAULT 'purchase'
    CHECK (kind = 'purchase' OR kind = 'refund' OR kind = 'credit');
ALTER TABLE purchases ADD COLUMN refund_of INTEGER REFERENCES purchases(id);

DROP INDEX IF EXISTS purchases_report;
CREATE INDEX purchases_report ON purchases (
    trip_id, category, currency, rate_source, provisional, tax_included,
    home_minor, home_discount_minor, home_service_minor, home_tax_minor, home_tip_minor, total_minor, date, kind);
DROP INDEX IF EXISTS purchases_by_trip_date;
CREATE INDEX purchases_by_trip_date ON purchases (trip_id, date, home_minor, kind);
-- "A refund never exceeds what it refunds" sums a purchase's refunds on every `trip refund`.
CREATE INDEX purchases_refund_of ON purchases (refund_of) WHERE refund_of IS NOT NULL;
