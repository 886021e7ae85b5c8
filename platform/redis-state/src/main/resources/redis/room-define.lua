-- Sets a sale's waiting room as a definition of the sale says, unless a newer definition set it already: concurrent
-- definitions end with the newest room whatever order they arrive in, as load-sale.lua does for the sale. Admission
-- starts over at the sale's start. A rate of 0 is a sale without a room.
-- KEYS: the SKU's room (SkuKeys.room)
-- ARGV: ttlMs, version, rate, startsAtMs, endsAtMs, buckets
-- Returns 1 when set, 0 when a newer definition's room stays.
if tonumber(redis.call('HGET', KEYS[1], 'version') or '-1') > tonumber(ARGV[2]) then
  return 0
end
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'rate', ARGV[3], 'startsAt', ARGV[4], 'endsAt', ARGV[5],
  'buckets', ARGV[6], 'admitted', '0', 'at', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
