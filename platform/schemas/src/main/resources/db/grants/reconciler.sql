-- The reconciler (seckill_reconciler): relays and purges both outboxes, expires unpaid orders, gives ended orders'
-- units back, rejects undeliverable orders, applies stock adjustments to Redis, files dead letters, rebuilds Redis.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, UPDATE (stock, version, updated_at) ON sku TO {account};
GRANT SELECT, INSERT, UPDATE (status, expired_at) ON orders TO {account};
GRANT SELECT, UPDATE (quantity) ON user_purchases TO {account};
GRANT SELECT, INSERT, UPDATE (relay_after, relay_attempts, relay_acks, completed_at), DELETE ON outbox TO {account};
GRANT SELECT, INSERT, UPDATE (relay_after, relay_attempts, relay_acks, completed_at, units_restored_at), DELETE
    ON order_events TO {account};
GRANT SELECT, INSERT ON dead_letters TO {account};
GRANT SELECT, UPDATE (in_redis) ON stock_adjustments TO {account};
