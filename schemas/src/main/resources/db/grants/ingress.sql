-- What the application account (every service's) may do, table by table: the DML the code uses and
-- nothing else. No DDL, no DELETE of orders, stock or audit records, and the schema history is read-only
-- (services check they run on their release's schema). Applied after every migration by
-- bin/seckill migrate, as the migration account; GRANT adds, so each statement can run again.
-- {application} is the account, quoted.
GRANT SELECT ON flyway_schema_history TO {application};
GRANT SELECT, INSERT, UPDATE ON sku TO {application};
GRANT SELECT, INSERT, UPDATE ON orders TO {application};
GRANT SELECT, INSERT, UPDATE ON user_purchases TO {application};
GRANT SELECT, INSERT, UPDATE, DELETE ON outbox TO {application};
GRANT SELECT, INSERT, UPDATE, DELETE ON order_events TO {application};
GRANT SELECT, INSERT ON dead_letters TO {application};
GRANT SELECT, INSERT, UPDATE ON stock_adjustments TO {application};
GRANT SELECT, INSERT ON admin_audit TO {application};
