-- Store a claimed request's reply as the key's answer, if that request still holds the claim: one
-- whose lease lapsed and was taken over must not overwrite the answer of the request that took it.
-- KEYS: the key's hash
-- ARGV: owner token, keepMs, status, contentType, body, location, code
-- Returns 1 when stored, 0 when another request holds the key.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'DONE', 'status', ARGV[3], 'contentType', ARGV[4], 'body', ARGV[5], 'location', ARGV[6], 'code', ARGV[7])
redis.call('HDEL', KEYS[1], 'owner', 'leaseUntil')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
