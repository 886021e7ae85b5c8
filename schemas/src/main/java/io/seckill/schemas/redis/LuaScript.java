package io.seckill.schemas.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts that change a SKU's Redis state. Each takes {@link SkuKeys#scriptKeys()} as KEYS;
 * the ARGV each expects is documented at the top of its file under {@code redis/}.
 */
public enum LuaScript {
    /** ARGV orderId, userId, quantity, nowMs. Returns RESERVED or the refusal code. */
    RESERVE("reserve.lua"),
    /** ARGV orderId. Returns the quantity put back, or 0 when the order holds no reservation. */
    RELEASE("release.lua"),
    /** ARGV orderId. Returns the quantity settled, or 0 when the order holds no reservation. */
    CONFIRM("confirm.lua"),
    /** ARGV stock, perUserLimit, startsAtMs, endsAtMs. Returns LOADED or IN_FLIGHT. */
    LOAD_SALE("load-sale.lua");

    private final String source;

    LuaScript(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream("/redis/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua resource redis/" + file);
            }
            this.source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String source() {
        return source;
    }
}
