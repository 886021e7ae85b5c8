-- Rebuild a SKU's sale state from what MySQL holds, in steps, so that a large ledger needs no single
-- huge call. The sale hash is written last: until then the reserve script finds no sale and refuses.
-- Each step is fenced: it runs only while the rebuild lock holds the rebuilder's token, so a rebuilder
-- paused past its lease cannot write its old snapshot over a sale rebuilt and selling since.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, the SKU's rebuild lock
-- ARGV[1] = the rebuilder's token (rebuild-lock.lua), then the step:
-- ARGV[2] = BEGIN: every key of the SKU is deleted.
-- ARGV[2] = ADD, then pairs orderId, "user|qty|timeMs": ledger entries, each counted to its buyer.
-- ARGV[2] = BOUGHT, then pairs userId, qty: units the buyer holds in decided orders.
-- ARGV[2] = ADJUSTED, then adjustment ids: stock adjustments MySQL's stock already holds.
-- ARGV[2] = OPEN, stock, pending, perUserLimit, startsAtMs, endsAtMs, version, passRequired: the sale opens.
-- Returns 1, or 0 (nothing written) when the lock no longer holds the token.
if redis.call('GET', KEYS[7]) ~= ARGV[1] then
  return 0
end
local mode = ARGV[2]
if mode == 'BEGIN' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
elseif mode == 'ADD' then
  for i = 3, #ARGV, 2 do
    redis.call('HSET', KEYS[4], ARGV[i], ARGV[i + 1])
    local user, qty = string.match(ARGV[i + 1], '^(.*)|(%d+)|%d+$')
    redis.call('HINCRBY', KEYS[3], user, tonumber(qty))
  end
elseif mode == 'BOUGHT' then
  for i = 3, #ARGV, 2 do
    redis.call('HINCRBY', KEYS[3], ARGV[i], tonumber(ARGV[i + 1]))
  end
elseif mode == 'ADJUSTED' then
  for i = 3, #ARGV do
    redis.call('SADD', KEYS[6], ARGV[i])
  end
elseif mode == 'OPEN' then
  redis.call('SET', KEYS[1], ARGV[3])
  redis.call('SET', KEYS[5], ARGV[4])
  redis.call('HSET', KEYS[2], 'limit', ARGV[5], 'startsAt', ARGV[6], 'endsAt', ARGV[7], 'version', ARGV[8], 'passRequired', ARGV[9])
else
  return redis.error_reply('unknown restore step ' .. tostring(mode))
end
return 1
