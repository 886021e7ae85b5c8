-- The ingress's admin listener (seckill_admin): sales defined, stock adjusted, every admin request audited.
GRANT SELECT ON flyway_schema_history TO {account};
-- A sale is defined by an upsert of every column of its row, which MySQL grants only with UPDATE on each of them.
GRANT SELECT, INSERT, UPDATE ON sku TO {account};
GRANT SELECT, INSERT, UPDATE (in_redis) ON stock_adjustments TO {account};
GRANT SELECT ON orders TO {account};
GRANT SELECT ON outbox TO {account};
GRANT SELECT, INSERT ON admin_audit TO {account};
