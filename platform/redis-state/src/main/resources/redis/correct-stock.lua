-- Repair a SKU's free stock to what MySQL holds, only if nothing moved since it was measured: the
-- stock is still the value read and no reservation is pending. A reservation or release in between
-- makes this a no-op; the next check measures again.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: expected stock, corrected stock
-- Returns 1 when corrected, 0 when something moved.
if redis.call('GET', KEYS[1]) ~= ARGV[1] or tonumber(redis.call('GET', KEYS[5]) or '0') ~= 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2])
return 1
