-- Gives back the cell a request took from a counter (rate-limit.lua) when the request was refused by its
-- other counter: a request counts against a buyer and an address only when both admit it. Only while the
-- counter still holds what that request stored: once another request moved it, the cell stays taken
-- (the buyer is counted one request more, never less).
-- KEYS: the counter
-- ARGV: the value the request stored, limit, windowMs
-- Returns 1 when given back, 0 when the counter moved on.
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local back = tonumber(ARGV[1]) - tonumber(ARGV[3]) * 1000 / tonumber(ARGV[2])
if back <= now then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], string.format('%.0f', back), 'PX', math.ceil((back - now) / 1000))
end
return 1
