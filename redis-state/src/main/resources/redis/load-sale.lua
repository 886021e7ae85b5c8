-- Load (or replace) a sale: stock, limit and window. Refused while reservations are still
-- undecided, because replacing stock under them would break "Redis stock + pending == MySQL stock".
-- KEYS: stock, sale, bought, ledger, pending
-- ARGV: stock, perUserLimit, startsAtMs, endsAtMs
-- Returns LOADED or IN_FLIGHT.
if tonumber(redis.call('GET', KEYS[5]) or '0') > 0 then
  return 'IN_FLIGHT'
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'limit', ARGV[2], 'startsAt', ARGV[3], 'endsAt', ARGV[4])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
return 'LOADED'
