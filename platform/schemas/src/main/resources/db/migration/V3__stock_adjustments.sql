-- Stock added to or removed from a live sale, each applied to both stores exactly once: the primary
-- key makes a retried request a replay, in_redis records whether Redis has it too (the reconciler
-- applies those it does not, after a crash between the two).
CREATE TABLE stock_adjustments (
  adjustment_id VARCHAR(64)  NOT NULL,
  sku_id        BIGINT       NOT NULL,
  delta         INT          NOT NULL,
  reason        VARCHAR(200) NOT NULL,
  in_redis      BOOLEAN      NOT NULL DEFAULT FALSE,
  created_at    DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (adjustment_id)
);
CREATE INDEX ix_stock_adjustments_pending ON stock_adjustments (in_redis, created_at);
CREATE INDEX ix_stock_adjustments_sku ON stock_adjustments (sku_id);
