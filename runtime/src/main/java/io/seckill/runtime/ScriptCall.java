package io.seckill.runtime;

import io.seckill.schemas.redis.LuaScript;
import java.util.List;

/** One call of one of the project's Lua scripts, for {@link LuaRunner#runAll}. */
public record ScriptCall(LuaScript script, List<String> keys, List<String> args) {
}
