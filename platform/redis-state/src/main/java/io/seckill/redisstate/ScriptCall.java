package io.seckill.redisstate;

import java.util.List;

/** One call of one of the project's Lua scripts, for {@link LuaRunner#runAll}. */
record ScriptCall(LuaScript script, List<String> keys, List<String> args) {
}
