-- Add a transfer's units to the receiving bucket, once: the transfer's id joins the bucket's applied transfers,
-- which live as long as the bucket's generation, so a transfer finished twice (by its taker and by a repair) adds
-- its units once. Refused for another generation: a load or rebuild since the units were taken wrote every bucket
-- anew, and the units went with the state they belonged to.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (the receiving bucket's, SkuKeys)
-- ARGV: transferId, units, the donor's generation
-- Returns 1 when added, 0 when added before, -1 when this bucket is not loaded (try again later), -2 when it is
-- of another generation
if redis.call('SISMEMBER', KEYS[8], ARGV[1]) == 1 then
  return 0
end
local generation = redis.call('HGET', KEYS[2], 'generation')
if not generation or not redis.call('HGET', KEYS[2], 'limit') then
  return -1
end
if generation ~= ARGV[3] then
  return -2
end
redis.call('SADD', KEYS[8], ARGV[1])
redis.call('INCRBY', KEYS[1], tonumber(ARGV[2]))
return 1
