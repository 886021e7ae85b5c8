-- Give the units of an order that ended unpaid (cancelled or expired) back to its sale: the stock, and
-- the buyer's slot. Once per order: the order's return id joins the SKU's applied adjustments, which a
-- rebuild from MySQL restores for every order whose units MySQL took back.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: returnId, userId, quantity
-- Returns {RETURNED, stock} | {ALREADY, stock} | {NOT_LOADED, 0}
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if redis.call('SISMEMBER', KEYS[6], ARGV[1]) == 1 then
  return {'ALREADY', stock}
end
if not redis.call('HGET', KEYS[2], 'limit') then
  return {'NOT_LOADED', 0}
end
local qty = tonumber(ARGV[3])
redis.call('SADD', KEYS[6], ARGV[1])
if redis.call('HINCRBY', KEYS[3], ARGV[2], -qty) <= 0 then
  redis.call('HDEL', KEYS[3], ARGV[2])
end
return {'RETURNED', redis.call('INCRBY', KEYS[1], qty)}
