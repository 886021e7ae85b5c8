-- Add (delta > 0) or remove (delta < 0) free stock of a loaded sale, once per adjustment id. A removal
-- takes only free units: reserved ones belong to orders on their way.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: adjustmentId, delta
-- Returns {APPLIED, stock} | {ALREADY, stock} | {NOT_LOADED, 0} | {INSUFFICIENT, stock}
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if redis.call('SISMEMBER', KEYS[6], ARGV[1]) == 1 then
  return {'ALREADY', stock}
end
if not redis.call('HGET', KEYS[2], 'limit') then
  return {'NOT_LOADED', 0}
end
local delta = tonumber(ARGV[2])
if stock + delta < 0 then
  return {'INSUFFICIENT', stock}
end
redis.call('SADD', KEYS[6], ARGV[1])
return {'APPLIED', redis.call('INCRBY', KEYS[1], delta)}
