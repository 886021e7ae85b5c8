-- Take a rebuild lock (a SKU's, or a primary's), one rebuilder at a time among several reconcilers, with
-- a fencing token: the lock frees itself after its lease, and a rebuilder paused past it must not write
-- over the sale the next one rebuilt. Every step of a SKU's rebuild checks the token against the fence of the
-- bucket it writes (restore-sale.lua).
-- Tokens grow with the lock's own server clock (microseconds, and past the last token given), so they keep growing
-- even when the token counter was lost with a primary that failed over before replicating it.
-- KEYS: the lock, the token counter (one slot)
-- ARGV: leaseMs
-- Returns the token (>= 1), or 0 when another rebuilder holds the lock.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local time = redis.call('TIME')
local token = math.max(tonumber(time[1]) * 1000000 + tonumber(time[2]), tonumber(redis.call('GET', KEYS[2]) or '0') + 1)
local text = string.format('%.0f', token)
redis.call('SET', KEYS[2], text)
redis.call('SET', KEYS[1], text, 'PX', ARGV[1])
return token
