-- The buyers' ingress (seckill_ingress): orders into the outbox, the buyer's own orders read, paid and cancelled.
-- It writes no stock, and of an order only what paying and cancelling change: never its SKU, buyer or quantity,
-- which a cancelled order's units go back by (the reconciler gives them back, from the event written here).
GRANT SELECT ON flyway_schema_history TO {account};
GRANT SELECT ON sku TO {account};
GRANT SELECT, INSERT ON outbox TO {account};
GRANT SELECT, UPDATE (status, paid_at, payment_reference, cancelled_at) ON orders TO {account};
GRANT INSERT ON order_events TO {account};
