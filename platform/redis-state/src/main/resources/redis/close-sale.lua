-- Stop selling a SKU while its sale is being redefined: buyers find no sale (the definition's version
-- stays, for load-sale's check). Refused while reservations are undecided (the SKU has orders on their way) or
-- units are moving to another bucket.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- Returns CLOSED or IN_FLIGHT.
if tonumber(redis.call('GET', KEYS[5]) or '0') > 0 or redis.call('HLEN', KEYS[7]) > 0 then
  return 'IN_FLIGHT'
end
redis.call('HDEL', KEYS[2], 'limit', 'startsAt', 'endsAt')
return 'CLOSED'
