-- Load (or replace) one bucket of a sale as MySQL defined it: the bucket's share of the stock, limit, window,
-- the version MySQL gave the definition and the generation of this load (transfers between buckets of another
-- generation are refused). A definition older than the one loaded is ignored, so concurrent definitions end with
-- the newest in both stores whatever order they arrive in. Refused while reservations are still
-- undecided, because replacing stock under them would break "Redis stock + pending == MySQL stock".
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: stock, perUserLimit, startsAtMs, endsAtMs, version, passRequired ('1' or '0'), generation
-- Returns LOADED, STALE or IN_FLIGHT.
local loaded = tonumber(redis.call('HGET', KEYS[2], 'version') or '-1')
if loaded > tonumber(ARGV[5]) then
  return 'STALE'
end
if tonumber(redis.call('GET', KEYS[5]) or '0') > 0 or redis.call('HLEN', KEYS[7]) > 0 then
  return 'IN_FLIGHT'
end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], 'limit', ARGV[2], 'startsAt', ARGV[3], 'endsAt', ARGV[4], 'version', ARGV[5], 'passRequired', ARGV[6],
  'generation', ARGV[7])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
return 'LOADED'
