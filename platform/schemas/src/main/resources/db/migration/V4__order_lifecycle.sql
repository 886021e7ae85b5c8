-- An order after MySQL confirmed it: its payment is due by pay_by, then it ends exactly once PAID,
-- CANCELLED (by its buyer) or EXPIRED (pay_by passed), each step with its time. Orders confirmed
-- before this migration have no pay_by: they never expire.
ALTER TABLE orders
  ADD COLUMN pay_by            DATETIME(3)  NULL,
  ADD COLUMN paid_at           DATETIME(3)  NULL,
  ADD COLUMN payment_reference VARCHAR(128) NULL,
  ADD COLUMN cancelled_at      DATETIME(3)  NULL,
  ADD COLUMN expired_at        DATETIME(3)  NULL;
-- The expiry sweep reads CONFIRMED orders by deadline through this index: only the due ones, never the
-- whole table.
CREATE INDEX ix_orders_payment_due ON orders (status, pay_by);

-- The lifecycle's outbox (Debezium's column layout): one row per order that ended, written in the
-- transaction that ended it; id and aggregateid are the order id (one ending per order, the record key
-- on order-lifecycle). returns_stock: a cancellation or expiry, whose units MySQL took back in that
-- transaction and Redis gets back from the reconciler, which sets completed_at once it has. The relay
-- re-publishes rows still open after relay_after, with backoff.
CREATE TABLE order_events (
  id             CHAR(36)     NOT NULL,
  aggregatetype  VARCHAR(64)  NOT NULL,
  aggregateid    VARCHAR(64)  NOT NULL,
  type           VARCHAR(64)  NOT NULL,
  payload        TEXT         NOT NULL,
  sku_id         BIGINT       NOT NULL,
  user_id        VARCHAR(64)  NOT NULL,
  quantity       INT          NOT NULL,
  returns_stock  BOOLEAN      NOT NULL,
  created_at     DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  relay_after    DATETIME(3)  NOT NULL,
  relay_attempts INT          NOT NULL DEFAULT 0,
  completed_at   DATETIME(3)  NULL,
  PRIMARY KEY (id)
);
CREATE INDEX ix_order_events_relay ON order_events (completed_at, relay_after);
CREATE INDEX ix_order_events_sku ON order_events (sku_id, returns_stock);
