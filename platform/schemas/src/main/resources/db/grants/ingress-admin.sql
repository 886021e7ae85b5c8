-- The ingress's admin listener (seckill_admin): sales defined, stock adjusted, every admin request audited.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT, INSERT, UPDATE (name, initial_stock, stock, per_user_limit, starts_at, ends_at, pass_required,
    stock_buckets, admission_per_second, version, updated_at) ON sku TO {account};
GRANT SELECT, INSERT, UPDATE (in_redis) ON stock_adjustments TO {account};
GRANT SELECT ON orders TO {account};
GRANT SELECT ON outbox TO {account};
GRANT SELECT, INSERT ON admin_audit TO {account};
