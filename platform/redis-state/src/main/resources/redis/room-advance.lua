-- Moves a waiting room's admission on by its rate over the time since it last moved, never past the highest place
-- issued: an empty room banks no admissions for a burst of late joiners. Any number of ingresses may call it, each
-- with its own clock: the time between calls is counted once, and a caller whose clock is behind moves nothing.
-- KEYS: the SKU's room (SkuKeys.room)
-- ARGV: nowMs, the highest place issued, in thousandths
-- Returns {rate (buyers a second), admitted so far in thousandths}, or {0, 0} when the sale has no room.
local room = redis.call('HMGET', KEYS[1], 'rate', 'admitted', 'at')
local rate = tonumber(room[1] or '0')
if rate == 0 then
  return {0, 0}
end
local admitted = tonumber(room[2] or '0')
local at = tonumber(room[3] or '0')
local now = tonumber(ARGV[1])
if now > at then
  -- A rate a second over milliseconds is thousandths of a buyer.
  admitted = math.max(admitted, math.min(admitted + rate * (now - at), tonumber(ARGV[2])))
  redis.call('HSET', KEYS[1], 'admitted', admitted, 'at', now)
end
return {rate, admitted}
