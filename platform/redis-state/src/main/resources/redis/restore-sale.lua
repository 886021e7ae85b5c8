-- Rebuild one bucket of a SKU's sale state from what MySQL holds, in steps, so that a large ledger needs no single
-- huge call. The sale hash is written last: until then the reserve script finds no sale and refuses.
-- Each step is fenced by the bucket's own fence (its slot's, as the buckets of a split SKU live on different
-- primaries): BEGIN raises it to the rebuilder's token, refused when a later rebuilder (a higher token) began the
-- bucket; every other step runs only while the fence holds the rebuilder's token. So a rebuilder paused past its
-- lease cannot write its old snapshot over a sale rebuilt and selling since.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming, the bucket's rebuild fence
-- ARGV[1] = the rebuilder's token (rebuild-lock.lua), then the step:
-- ARGV[2] = BEGIN: every key of the bucket is deleted.
-- ARGV[2] = ADD, then pairs orderId, "user|qty|timeMs": ledger entries, each counted to its buyer.
-- ARGV[2] = BOUGHT, then pairs userId, qty: units the buyer holds in decided orders.
-- ARGV[2] = ADJUSTED, then adjustment ids: stock adjustments MySQL's stock already holds.
-- ARGV[2] = OPEN, stock, pending, perUserLimit, startsAtMs, endsAtMs, version, passRequired, generation: the sale opens.
-- Returns 1, or 0 (nothing written) when the fence holds another rebuilder's token.
local fence = tonumber(redis.call('GET', KEYS[9]) or '0')
local token = tonumber(ARGV[1])
if ARGV[2] == 'BEGIN' and fence <= token then
  redis.call('SET', KEYS[9], ARGV[1])
elseif fence ~= token then
  return 0
end
local mode = ARGV[2]
if mode == 'BEGIN' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8])
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
  redis.call('HSET', KEYS[2], 'limit', ARGV[5], 'startsAt', ARGV[6], 'endsAt', ARGV[7], 'version', ARGV[8], 'passRequired', ARGV[9],
    'generation', ARGV[10])
else
  return redis.error_reply('unknown restore step ' .. tostring(mode))
end
return 1
