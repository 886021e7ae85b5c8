-- How many buyers a second the sale's waiting room admits to its sale passes; NULL: the sale has no waiting room and
-- any buyer may ask for a pass (as sales defined before waiting rooms existed do).
ALTER TABLE sku ADD COLUMN admission_per_second INT NULL;
