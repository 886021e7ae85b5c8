-- Reserve stock for one order, atomically: sale loaded and open, per-user limit, stock, then
-- decrement, count the user's units and record the reservation in the ledger.
-- KEYS: stock, sale, bought, ledger, pending
-- ARGV: orderId, userId, quantity, nowMs
-- Returns RESERVED, or NOT_LOADED | SALE_NOT_STARTED | SALE_ENDED | PURCHASE_LIMIT_REACHED | SOLD_OUT | DUPLICATE_ORDER
local sale = redis.call('HMGET', KEYS[2], 'limit', 'startsAt', 'endsAt')
if not sale[1] then
  return 'NOT_LOADED'
end
local now = tonumber(ARGV[4])
if now < tonumber(sale[2]) then
  return 'SALE_NOT_STARTED'
end
if now >= tonumber(sale[3]) then
  return 'SALE_ENDED'
end
local qty = tonumber(ARGV[3])
local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
if stock < qty then
  return 'SOLD_OUT'
end
local held = tonumber(redis.call('HGET', KEYS[3], ARGV[2]) or '0')
if held + qty > tonumber(sale[1]) then
  return 'PURCHASE_LIMIT_REACHED'
end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 1 then
  return 'DUPLICATE_ORDER'
end
redis.call('DECRBY', KEYS[1], qty)
redis.call('HINCRBY', KEYS[3], ARGV[2], qty)
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2] .. '|' .. qty .. '|' .. ARGV[4])
redis.call('INCRBY', KEYS[5], qty)
return 'RESERVED'
