-- Take a rebuild lock (a SKU's, or a primary's), one rebuilder at a time among several reconcilers, with
-- a fencing token: the lock frees itself after its lease, and a rebuilder paused past it must not write
-- over the sale the next one rebuilt. Every step of a SKU's rebuild checks that the SKU's lock still
-- holds its token (restore-sale.lua).
-- KEYS: the lock, the token counter (one slot)
-- ARGV: leaseMs
-- Returns the token (>= 1), or 0 when another rebuilder holds the lock.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], token, 'PX', ARGV[1])
return token
