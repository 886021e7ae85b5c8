-- The transfers out of a bucket older than a grace period by this server's clock, with the bucket's generation:
-- the ones their taker did not finish (it died or stalled between the steps), for SaleStore#finishTransfers.
-- KEYS: stock, sale, bought, ledger, pending, adjustments, outgoing, incoming (the donor bucket's, SkuKeys)
-- ARGV: graceMs
-- Returns {generation or '', transferId, entry, transferId, entry, ...}
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local reply = {redis.call('HGET', KEYS[2], 'generation') or ''}
local entries = redis.call('HGETALL', KEYS[7])
for i = 1, #entries, 2 do
  local at = tonumber(string.match(entries[i + 1], '|(%d+)$'))
  if now - at >= tonumber(ARGV[1]) then
    reply[#reply + 1] = entries[i]
    reply[#reply + 1] = entries[i + 1]
  end
end
return reply
