-- Free a key whose claimed request stored nothing, if that request still holds the claim.
-- KEYS: the key's hash
-- ARGV: owner token
-- Returns 1 when freed, 0 when another request holds the key.
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1
