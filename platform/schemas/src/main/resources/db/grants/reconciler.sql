-- The reconciler (seckill_reconciler): relays and purges both outboxes, expires unpaid orders, gives ended orders'
-- units back, rejects undeliverable orders, applies stock adjustments to Redis, files dead letters, rebuilds Redis.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, UPDATE ON sku TO {account};
GRANT SELECT, INSERT, UPDATE ON orders TO {account};
GRANT SELECT, UPDATE ON user_purchases TO {account};
GRANT SELECT, INSERT, UPDATE, DELETE ON outbox TO {account};
GRANT SELECT, INSERT, UPDATE, DELETE ON order_events TO {account};
GRANT SELECT, INSERT ON dead_letters TO {account};
GRANT SELECT, UPDATE ON stock_adjustments TO {account};
