-- What a buyer holds of a SKU never goes below nothing: a give-back of more than the buyer was counted (a forged or
-- doubled return) fails its transaction instead of raising the buyer's limit for the next sale of the SKU.
ALTER TABLE user_purchases ADD CONSTRAINT ck_user_purchases_not_negative CHECK (quantity >= 0);
