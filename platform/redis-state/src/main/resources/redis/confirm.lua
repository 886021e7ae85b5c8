-- Settle a reservation the database confirmed: the units stay sold and the user keeps the slot;
-- only the ledger entry (and the pending sum) goes. Guarded by the ledger like release, and refused
-- like it while the sale is not loaded (a rebuild's last step would set pending back).
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: orderId
-- Returns the quantity settled, 0 if the order holds none, or -1 when the sale is not loaded.
local entry = redis.call('HGET', KEYS[4], ARGV[1])
if not entry then
  return 0
end
if not redis.call('HGET', KEYS[2], 'limit') then
  return -1
end
local qty = tonumber(string.match(entry, '|(%d+)|%d+$'))
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('DECRBY', KEYS[5], qty)
return qty
