-- The db-sink (seckill_sink): decisions recorded, stock charged, the buyer's purchases counted, the outbox row closed.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, UPDATE (stock, version, updated_at) ON sku TO {account};
GRANT SELECT, INSERT ON orders TO {account};
GRANT SELECT, INSERT, UPDATE (quantity) ON user_purchases TO {account};
GRANT SELECT, UPDATE (completed_at) ON outbox TO {account};
