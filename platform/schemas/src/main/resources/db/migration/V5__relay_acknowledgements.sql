-- How many of a row's re-sends the broker acknowledged. relay_attempts counts the sends the relay
-- claimed and the broker either took or refused (a send nobody answered is handed back uncounted);
-- the relay gives an order up as UNDELIVERED only when it was refused every time, never once a send
-- of it reached the broker: from then on the pipeline owes it a decision and the relay keeps asking.
ALTER TABLE outbox ADD COLUMN relay_acks INT NOT NULL DEFAULT 0;
ALTER TABLE order_events ADD COLUMN relay_acks INT NOT NULL DEFAULT 0;
