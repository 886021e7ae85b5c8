-- How many buckets an admin asked a sale's stock to be split over in Redis (1 to 64), so a hot SKU's calls spread
-- over a Redis Cluster's primaries; NULL lets the ingress choose (one on a single node, the number of primaries on a
-- cluster, never more than the stock). MySQL keeps one row per SKU whatever Redis does: its stock is the buckets' sum.
ALTER TABLE sku ADD COLUMN stock_buckets SMALLINT NULL;
