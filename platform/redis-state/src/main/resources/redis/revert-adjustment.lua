-- Take back an adjustment applied here whose MySQL side failed, once.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: adjustmentId, delta
-- Returns 1 when reverted, 0 when it was not applied.
if redis.call('SREM', KEYS[6], ARGV[1]) == 0 then
  return 0
end
redis.call('DECRBY', KEYS[1], tonumber(ARGV[2]))
return 1
