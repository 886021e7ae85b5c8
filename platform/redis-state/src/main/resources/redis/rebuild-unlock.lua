-- Delete a key only if it still holds the given value: a rebuild lock given back, only if it still
-- holds this rebuilder's token (a lease that ran out may already be the next rebuilder's); a rebuild
-- request withdrawn once answered, only if no newer one replaced it.
-- KEYS: the lock (or the request)
-- ARGV: token (or the request's id)
-- Returns 1 when deleted, 0 when the key does not (or no longer) hold the value.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
