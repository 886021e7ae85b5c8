-- Sell a closed sale again, unchanged, when its redefinition did not happen (refused or failed in
-- MySQL): only the window, limit and pass rule come back; stock, buyers and reservations were never touched.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (one bucket's, SkuKeys)
-- ARGV: perUserLimit, startsAtMs, endsAtMs, version, passRequired
-- Returns 1 when reopened, 0 when another definition was loaded meanwhile.
if redis.call('HGET', KEYS[2], 'version') ~= ARGV[4] then
  return 0
end
redis.call('HSET', KEYS[2], 'limit', ARGV[1], 'startsAt', ARGV[2], 'endsAt', ARGV[3], 'passRequired', ARGV[5])
return 1
