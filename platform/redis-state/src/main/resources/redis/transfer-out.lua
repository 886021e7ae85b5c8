-- Take units out of a bucket for another (the first step of a transfer between two buckets of one SKU): at least
-- what the receiver wants, else half of what this bucket holds, never more than it holds. The transfer is recorded
-- here, by this server's clock, until it is known to have arrived (transfer-in.lua, then its record deleted): a
-- transfer cut between its steps is finished by whoever finds its record (SaleStore#finishTransfers).
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (the donor bucket's, SkuKeys)
-- ARGV: transferId, receiving bucket, units wanted
-- Returns {units taken (0 when none: empty or not loaded), this bucket's generation, units already moving out of it}
local sale = redis.call('HMGET', KEYS[2], 'limit', 'generation')
local moving = 0
for _, entry in ipairs(redis.call('HVALS', KEYS[7])) do
  moving = moving + tonumber(string.match(entry, '^%d+|(%d+)|'))
end
if not sale[1] then
  return {0, '', moving}
end
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock <= 0 then
  return {0, sale[2], moving}
end
local take = math.min(stock, math.max(tonumber(ARGV[3]), math.ceil(stock / 2)))
local time = redis.call('TIME')
redis.call('DECRBY', KEYS[1], take)
redis.call('HSET', KEYS[7], ARGV[1], ARGV[2] .. '|' .. take .. '|' .. (tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)))
return {take, sale[2], moving}
