-- A buyer joins a sale's waiting room in their home bucket; joining again answers the place given the first time.
-- Before the start a buyer joins the pre-queue (place 0: the order is drawn at the start, from the ticket); from the
-- start, or once anyone of this bucket has lined up after it (an ingress whose clock runs behind), the buyer takes the
-- bucket's next place in line. The places are sale state, kept without a lifetime, as the room is.
-- KEYS: the bucket's queue, its queue counts (SkuKeys)
-- ARGV: userId, 'pre' or 'arrived'
-- Returns {1 when the buyer joined now or 0 when before, the buyer's place in the bucket (0: the pre-queue)}.
local place = redis.call('HGET', KEYS[1], ARGV[1])
if place then
  return {0, tonumber(place)}
end
if ARGV[2] == 'pre' and tonumber(redis.call('HGET', KEYS[2], 'arrived') or '0') == 0 then
  redis.call('HSET', KEYS[1], ARGV[1], '0')
  redis.call('HINCRBY', KEYS[2], 'pre', 1)
  place = 0
else
  place = redis.call('HINCRBY', KEYS[2], 'arrived', 1)
  redis.call('HSET', KEYS[1], ARGV[1], place)
end
return {1, place}
