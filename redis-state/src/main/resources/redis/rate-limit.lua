-- Sliding-window rate limit for one buyer and one client address, decided together: a request is
-- admitted (and counted against both) only if both are under their limit for the last window.
-- KEYS: user log, address log (sorted sets of admitted request times)
-- ARGV: nowMs, windowMs, userLimit, addressLimit, requestId  (a limit of 0 switches that side off)
-- Returns 0 when admitted, else the milliseconds until a slot frees up.
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local function wait(key, limit)
  if limit <= 0 then
    return 0
  end
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  if redis.call('ZCARD', key) < limit then
    return 0
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return math.max(1, tonumber(oldest[2]) + window - now)
end
local limits = {tonumber(ARGV[3]), tonumber(ARGV[4])}
local longest = math.max(wait(KEYS[1], limits[1]), wait(KEYS[2], limits[2]))
if longest > 0 then
  return longest
end
for i = 1, 2 do
  if limits[i] > 0 then
    redis.call('ZADD', KEYS[i], now, ARGV[5])
    redis.call('PEXPIRE', KEYS[i], window)
  end
end
return 0
