-- The db-sink (seckill_sink): decisions recorded, stock charged, the buyer's purchases counted, the outbox row closed.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, UPDATE ON sku TO {account};
GRANT SELECT, INSERT ON orders TO {account};
GRANT SELECT, INSERT, UPDATE ON user_purchases TO {account};
GRANT SELECT, UPDATE ON outbox TO {account};
