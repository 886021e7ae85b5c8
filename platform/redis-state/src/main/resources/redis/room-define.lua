-- Sets a sale's waiting room as a definition of the sale says, unless a newer definition set it already: concurrent
-- definitions end with the newest room whatever order they arrive in, as load-sale.lua does for the sale. Admission
-- starts over at the sale's start. A rate of 0 is a sale without a room. The room is sale state, kept without a
-- lifetime (a memory limit under volatile-lru never evicts it). Its line keeps its id while the number of buckets
-- stays; a room made anew (the first time, or after Redis lost it) or over another number of buckets starts a new
-- line under the id given, and the tickets of any other line are refused.
-- KEYS: the SKU's room (SkuKeys.room)
-- ARGV: version, rate, startsAtMs, endsAtMs, buckets, the id of a new line
-- Returns 1 when set, 0 when a newer definition's room stays.
local held = redis.call('HMGET', KEYS[1], 'version', 'buckets', 'line')
if tonumber(held[1] or '-1') > tonumber(ARGV[1]) then
  return 0
end
local line = held[3]
if not line or held[2] ~= ARGV[5] then
  line = ARGV[6]
end
redis.call('HSET', KEYS[1], 'version', ARGV[1], 'rate', ARGV[2], 'startsAt', ARGV[3], 'endsAt', ARGV[4],
  'buckets', ARGV[5], 'admitted', '0', 'at', ARGV[3], 'line', line)
redis.call('PERSIST', KEYS[1])
return 1
