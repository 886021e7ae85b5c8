-- Give a reservation back: stock returns, the user's slot returns, the ledger entry goes.
-- The ledger entry is the guard: a second release of the same order finds nothing and does nothing.
-- Refused while the sale is not loaded (a rebuild between its first step and its last): the rebuild's
-- last step sets stock and pending from its MySQL snapshot and would undo the release. The ledger keeps
-- the reservation, and the leak sweep settles it from MySQL's decision once the sale is open.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: orderId
-- Returns the quantity put back, 0 if the order holds none, or -1 when the sale is not loaded.
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if not entry then
  return 0
end
if not redis.call('HGET', KEYS[2], 'limit') then
  return -1
end
local user, qty = string.match(entry, '^(.*)|(%d+)|%d+$')
qty = tonumber(qty)
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('INCRBY', KEYS[1], qty)
if redis.call('HINCRBY', KEYS[3], user, -qty) <= 0 then
  redis.call('HDEL', KEYS[3], user)
end
redis.call('DECRBY', KEYS[5], qty)
return qty
