-- The W3C traceparent of the request that placed an order (the caller's trace continued, or one the ingress started):
-- the relay's re-sends carry it as the first send did, so one trace id finds the order's whole path. NULL for rows
-- written before traces existed.
ALTER TABLE outbox ADD COLUMN traceparent VARCHAR(55) NULL;
-- An order's lifecycle events (paid, cancelled, expired) continue the order's trace.
ALTER TABLE orders ADD COLUMN traceparent VARCHAR(55) NULL;
ALTER TABLE order_events ADD COLUMN traceparent VARCHAR(55) NULL;
