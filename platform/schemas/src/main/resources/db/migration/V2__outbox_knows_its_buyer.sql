-- The buyer, quantity and Idempotency-Key of each order, so that MySQL alone can answer for an order
-- when Redis cannot: a retry with the same key finds its order (at most one order per key and buyer),
-- a buyer lists their own orders, and a lost Redis is rebuilt from the open rows.
-- A row of type 'OrderVoided' is a fence: it takes the id of an order that was reserved in Redis but
-- never recorded, so that a late insert of the order fails, and its reservation can go back.
ALTER TABLE outbox
  ADD COLUMN user_id         VARCHAR(64)  NULL,
  ADD COLUMN quantity        INT          NULL,
  ADD COLUMN idempotency_key VARCHAR(128) NULL;
CREATE UNIQUE INDEX uq_outbox_buyer_key ON outbox (user_id, idempotency_key);
-- [jooq ignore start]
UPDATE outbox SET user_id = JSON_VALUE(payload, '$.userId'), quantity = JSON_VALUE(payload, '$.quantity');
-- [jooq ignore stop]
ALTER TABLE outbox MODIFY user_id VARCHAR(64) NOT NULL;
ALTER TABLE outbox MODIFY quantity INT NOT NULL;
