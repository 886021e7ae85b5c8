-- Set fields of one hash and its time to live in one step, so no key is ever left without expiry.
-- KEYS: the hash
-- ARGV: ttlMs, field1, value1, field2, value2, ...
-- Returns 1.
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
