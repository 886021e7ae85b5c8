-- The db-sink (seckill_sink): decisions recorded, stock charged, the buyer's purchases counted, the outbox row closed.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, UPDATE (stock, version, updated_at) ON sku TO {account};
GRANT SELECT, INSERT ON orders TO {account};
-- A buyer's purchases are counted by an upsert of the whole row, which MySQL grants only with UPDATE on each column.
GRANT SELECT, INSERT, UPDATE ON user_purchases TO {account};
GRANT SELECT, UPDATE (completed_at) ON outbox TO {account};
