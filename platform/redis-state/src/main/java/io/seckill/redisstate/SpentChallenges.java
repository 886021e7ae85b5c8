package io.seckill.redisstate;

import java.time.Duration;
import redis.clients.jedis.params.SetParams;

/**
 * Sale-pass challenges already answered: each may earn one pass, so an answer seen before is a replay. A
 * challenge is remembered only until it expires, after which its answer is refused for its age anyway.
 */
public final class SpentChallenges {

    private final LuaRunner lua;

    public SpentChallenges(LuaRunner lua) {
        this.lua = lua;
    }

    /**
     * Marks the challenge answered, atomically with the check.
     * @param remembered how long it must be remembered: until it expires
     * @return true the first time, false for a replay
     */
    public boolean spend(String challengeId, Duration remembered) {
        return "OK".equals(lua.redis().set(GlobalKeys.spentChallenge(challengeId), "1",
                SetParams.setParams().nx().px(Math.max(1, remembered.toMillis()))));
    }
}
