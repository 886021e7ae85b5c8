-- Reserve stock for one order, atomically: sale loaded and open, a sale pass shown if the sale wants
-- one (the caller verified it: it is signed, not stored), quantity within the per-user limit,
-- the user's running total, stock, then decrement, count the user's units and record the
-- reservation in the ledger.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: orderId, userId, quantity, nowMs, passShown ('1' when the request carried this buyer's valid pass)
-- Returns {code, value}:
--   {RESERVED, stock left} | {NOT_LOADED, 0} | {SALE_NOT_STARTED, startsAtMs} | {SALE_ENDED, endsAtMs}
--   | {PASS_REQUIRED, 0} | {QUANTITY_OVER_LIMIT, limit} | {SOLD_OUT, 0} | {INSUFFICIENT_STOCK, stock left}
--   | {PURCHASE_LIMIT_REACHED, limit} | {DUPLICATE_ORDER, 0}
local sale = redis.call('HMGET', KEYS[2], 'limit', 'startsAt', 'endsAt', 'passRequired')
if not sale[1] then
  return {'NOT_LOADED', 0}
end
local now = tonumber(ARGV[4])
if now < tonumber(sale[2]) then
  return {'SALE_NOT_STARTED', tonumber(sale[2])}
end
if now >= tonumber(sale[3]) then
  return {'SALE_ENDED', tonumber(sale[3])}
end
if sale[4] == '1' and ARGV[5] ~= '1' then
  return {'PASS_REQUIRED', 0}
end
local qty = tonumber(ARGV[3])
local limit = tonumber(sale[1])
if qty > limit then
  return {'QUANTITY_OVER_LIMIT', limit}
end
-- The buyer's limit before the stock: a buyer at it is refused here, never sent to borrow units from other buckets.
local held = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
if held + qty > limit then
  return {'PURCHASE_LIMIT_REACHED', limit}
end
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock <= 0 then
  return {'SOLD_OUT', 0}
end
if stock < qty then
  return {'INSUFFICIENT_STOCK', stock}
end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then
  return {'DUPLICATE_ORDER', 0}
end
local left = redis.call('DECRBY', KEYS[1], qty)
redis.call('HINCRBY', KEYS[3], ARGV[2], qty)
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2] .. '|' .. qty .. '|' .. ARGV[4])
redis.call('INCRBY', KEYS[5], qty)
return {'RESERVED', left}
