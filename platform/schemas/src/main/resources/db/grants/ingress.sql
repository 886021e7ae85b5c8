-- The buyers' ingress (seckill_ingress): orders into the outbox, the buyer's own orders read, paid and cancelled.
-- It writes no stock: a cancelled order's units go back by the reconciler, from the event written here.
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT ON sku TO {account};
GRANT SELECT, INSERT ON outbox TO {account};
GRANT SELECT, UPDATE ON orders TO {account};
GRANT INSERT ON order_events TO {account};
