-- Give a reservation back: stock returns, the user's slot returns, the ledger entry goes.
-- The ledger entry is the guard: a second release of the same order finds nothing and does nothing.
-- KEYS: stock, sale, bought, ledger, pending, adjustments
-- ARGV: orderId
-- Returns the quantity put back, or 0.
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if not entry then
  return 0
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
