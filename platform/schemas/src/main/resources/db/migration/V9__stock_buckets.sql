-- How many buckets a sale's stock is split over in Redis (1 to 64), so a hot SKU's calls spread over a Redis Cluster's
-- primaries: as the admin asked, or as the ingress chose when the sale was defined (one on a single node, the number of
-- primaries on a cluster, never more than the stock); a rebuild of Redis lays the sale out the same way. NULL for sales
-- defined before buckets existed: one bucket. MySQL keeps one row per SKU whatever Redis does: its stock is the
-- buckets' sum.
ALTER TABLE sku ADD COLUMN stock_buckets SMALLINT NULL;
