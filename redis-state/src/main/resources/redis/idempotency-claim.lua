-- Claim an idempotency key, or learn what became of the request that claimed it.
-- KEYS: the key's hash (state, fingerprint, status, contentType, body, location, code)
-- ARGV: fingerprint of this request, claimTtlMs
-- Returns {CLAIMED} | {MISMATCH} | {IN_PROGRESS} | {DONE, status, contentType, body, location, code}
local stored = redis.call('HMGET', KEYS[1], 'fingerprint', 'state', 'status', 'contentType', 'body', 'location', 'code')
if not stored[1] then
  redis.call('HSET', KEYS[1], 'fingerprint', ARGV[1], 'state', 'IN_PROGRESS')
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'CLAIMED'}
end
if stored[1] ~= ARGV[1] then
  return {'MISMATCH'}
end
if stored[2] ~= 'DONE' then
  return {'IN_PROGRESS'}
end
return {'DONE', stored[3], stored[4], stored[5], stored[6], stored[7] or ''}
