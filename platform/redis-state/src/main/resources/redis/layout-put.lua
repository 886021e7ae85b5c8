-- Record how many buckets a SKU's stock is split over, for the definition (MySQL's version) that chose it, unless a
-- newer definition's layout is recorded: concurrent definitions end with the newest layout whatever their order.
-- A rebuild records its layout only while it holds the SKU's rebuild lock (same slot).
-- The layout is one string, "buckets|version", in the slot of a SKU of one bucket, so one MGET reads it with that
-- bucket's stock and pending.
-- KEYS: the SKU's layout (SkuKeys#layout), and for a rebuild the SKU's rebuild lock
-- ARGV: buckets, version, and for a rebuild its token
-- Returns the bucket count recorded before (1 when none was), -1 when a newer definition's layout stays, or -2 when
-- the rebuild lock no longer holds the token.
if KEYS[2] and redis.call('GET', KEYS[2]) ~= ARGV[3] then
  return -2
end
local buckets, version = string.match(redis.call('GET', KEYS[1]) or '1|-1', '^(%d+)|(-?%d+)$')
if tonumber(version) > tonumber(ARGV[2]) then
  return -1
end
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. ARGV[2])
return tonumber(buckets)
