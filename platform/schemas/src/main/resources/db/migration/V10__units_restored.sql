-- When a cancelled or expired order's units went back to MySQL (sku.stock and the buyer's user_purchases):
-- the reconciler gives them back when it consumes the order's event, then gives them to Redis and
-- completes the row. The account that ends an order (the buyer-facing ingress cancels) never writes stock.
-- Rows written before this migration gave their units back in the transaction that ended the order.
ALTER TABLE order_events ADD COLUMN units_restored_at DATETIME(3) NULL;
-- [jooq ignore start]
UPDATE order_events SET units_restored_at = created_at WHERE returns_stock;
-- [jooq ignore stop]
