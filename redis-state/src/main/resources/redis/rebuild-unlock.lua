-- Give the rebuild lock back, only if it still holds this rebuilder's token (a lease that ran out may
-- already be the next rebuilder's).
-- KEYS: the lock
-- ARGV: token
-- Returns 1 when released, 0 when the lock is not (or no longer) this token's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
