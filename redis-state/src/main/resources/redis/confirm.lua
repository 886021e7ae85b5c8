-- Settle a reservation the database confirmed: the units stay sold and the user keeps the slot;
-- only the ledger entry (and the pending sum) goes. Guarded by the ledger like release.
-- KEYS: stock, sale, bought, ledger, pending, adjustments
-- ARGV: orderId
-- Returns the quantity settled, or 0.
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if not entry then
  return 0
end
local qty = tonumber(string.match(entry, '|(%d+)|%d+$'))
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('DECRBY', KEYS[5], qty)
return qty
