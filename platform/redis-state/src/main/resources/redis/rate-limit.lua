-- One rate-limit counter, by the generic cell rate algorithm (GCRA): the key holds one number, the
-- theoretical arrival time (TAT) of the next request, in microseconds of this server's clock. A limit of
-- L per window W lets L requests through at once, then one every W / L; a request is admitted when the
-- TAT it would leave is at most W ahead of now. Time is Redis's own (TIME), so ingresses whose clocks
-- differ count alike. One key per call: a buyer's counter and an address's live in slots of their own.
-- KEYS: the counter
-- ARGV: limit (> 0), windowMs
-- Returns {waitMs, stored}: waitMs 0 when admitted, with the value stored (what a refund names);
-- else the milliseconds until the next request would be admitted, with ''.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local window = tonumber(ARGV[2]) * 1000
local interval = window / tonumber(ARGV[1])
local tat = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
local after = tat + interval
if after - now > window then
  return {math.ceil((after - now - window) / 1000), ''}
end
local stored = string.format('%.0f', after)
redis.call('SET', KEYS[1], stored, 'PX', math.max(1, math.ceil((after - now) / 1000)))
return {0, stored}
