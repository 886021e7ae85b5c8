-- Whether buying needs a sale pass (a per-buyer, per-sale token earned by a challenge shortly before the
-- start). Sales defined before passes existed keep selling as they were defined; the admin API defines a
-- new sale with passes required unless it opts out.
ALTER TABLE sku ADD COLUMN pass_required BOOLEAN NOT NULL DEFAULT FALSE;
