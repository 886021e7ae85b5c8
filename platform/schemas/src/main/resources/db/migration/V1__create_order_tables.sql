-- One sale: a SKU with its stock, window and per-user limit. The CHECK is the last line of defence
-- against oversell (promise P1): MySQL 8.0.16+ and MariaDB 10.2+ enforce it.
CREATE TABLE sku (
  id             BIGINT       NOT NULL,
  name           VARCHAR(200) NOT NULL,
  initial_stock  INT          NOT NULL,
  stock          INT          NOT NULL,
  per_user_limit INT          NOT NULL,
  starts_at      DATETIME(3)  NOT NULL,
  ends_at        DATETIME(3)  NOT NULL,
  version        BIGINT       NOT NULL DEFAULT 0,
  created_at     DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  updated_at     DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT ck_sku_stock_not_negative CHECK (stock >= 0),
  CONSTRAINT ck_sku_limit_positive CHECK (per_user_limit > 0)
);

-- Every decided order, CONFIRMED or REJECTED. order_id is minted by the ingress; its uniqueness makes
-- the sink idempotent under redelivery.
CREATE TABLE orders (
  id           BIGINT      NOT NULL AUTO_INCREMENT,
  order_id     CHAR(36)    NOT NULL,
  sku_id       BIGINT      NOT NULL,
  user_id      VARCHAR(64) NOT NULL,
  quantity     INT         NOT NULL,
  status       VARCHAR(16) NOT NULL,
  reason       VARCHAR(64) NULL,
  requested_at DATETIME(3) NOT NULL,
  decided_at   DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT uq_orders_order_id UNIQUE (order_id)
);
CREATE INDEX ix_orders_sku_user ON orders (sku_id, user_id);

-- What each buyer holds of each SKU: the database's own guard on the per-user limit (promise P2).
CREATE TABLE user_purchases (
  sku_id   BIGINT      NOT NULL,
  user_id  VARCHAR(64) NOT NULL,
  quantity INT         NOT NULL,
  PRIMARY KEY (sku_id, user_id)
);

-- Transactional outbox in Debezium's column layout (id, aggregatetype, aggregateid, type, payload),
-- plus the relay's bookkeeping. completed_at is set in the sink's transaction once the order is decided.
CREATE TABLE outbox (
  id             CHAR(36)     NOT NULL,
  aggregatetype  VARCHAR(64)  NOT NULL,
  aggregateid    VARCHAR(64)  NOT NULL,
  type           VARCHAR(64)  NOT NULL,
  payload        TEXT         NOT NULL,
  created_at     DATETIME(3)  NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  relay_after    DATETIME(3)  NOT NULL,
  relay_attempts INT          NOT NULL DEFAULT 0,
  completed_at   DATETIME(3)  NULL,
  PRIMARY KEY (id)
);
CREATE INDEX ix_outbox_relay ON outbox (completed_at, relay_after);

-- Every record that reached the dead-letter topic, with where it came from and why.
CREATE TABLE dead_letters (
  id               BIGINT        NOT NULL AUTO_INCREMENT,
  dlq_partition    INT           NOT NULL,
  dlq_offset       BIGINT        NOT NULL,
  source_topic     VARCHAR(255)  NULL,
  source_partition INT           NULL,
  source_offset    BIGINT        NULL,
  reason           VARCHAR(1000) NOT NULL,
  failed_stage     VARCHAR(64)   NULL,
  order_id         CHAR(36)      NULL,
  record_key       VARBINARY(512) NULL,
  record_value     MEDIUMBLOB    NULL,
  released         BOOLEAN       NOT NULL DEFAULT FALSE,
  created_at       DATETIME(3)   NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT uq_dead_letters_dlq_position UNIQUE (dlq_partition, dlq_offset)
);
