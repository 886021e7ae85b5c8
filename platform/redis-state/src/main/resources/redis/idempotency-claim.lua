-- Claim an idempotency key, or learn what became of the request that claimed it.
-- A claim is a lease on Redis's own clock: while it runs, retries wait; once it lapses (its request's
-- process died, or was paused past it), a retry takes the key over. The claim's record outlives its
-- lease (it expires with the key), so a takeover is told apart from a first claim.
-- KEYS: the key's hash (fingerprint, state, owner, leaseUntil; once DONE: status, contentType, body, location, code)
-- ARGV: fingerprint of this request, leaseMs, this request's owner token, keepMs (the key's lifetime)
-- Returns {CLAIMED} | {TAKEN_OVER} | {MISMATCH} | {IN_PROGRESS} | {DONE, status, contentType, body, location, code}
local stored = redis.call('HMGET', KEYS[1], 'fingerprint', 'state', 'status', 'contentType', 'body', 'location', 'code', 'leaseUntil')
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local leaseUntil = now + tonumber(ARGV[2])
if not stored[1] then
  redis.call('HSET', KEYS[1], 'fingerprint', ARGV[1], 'state', 'IN_PROGRESS', 'owner', ARGV[3], 'leaseUntil', leaseUntil)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
  return {'CLAIMED'}
end
if stored[1] ~= ARGV[1] then
  return {'MISMATCH'}
end
if stored[2] == 'DONE' then
  return {'DONE', stored[3], stored[4], stored[5], stored[6], stored[7] or ''}
end
if not stored[8] or now < tonumber(stored[8]) then
  return {'IN_PROGRESS'}
end
redis.call('HSET', KEYS[1], 'owner', ARGV[3], 'leaseUntil', leaseUntil)
return {'TAKEN_OVER'}
