package io.seckill.redisstate;

import java.util.List;

/**
 * Redis key names of one SKU. All share the hash tag {@code {sku:ID}}, so they live in one slot and
 * every script works unchanged on Redis Cluster.
 *
 * <ul>
 *   <li>{@code stock}: units still free to reserve (integer, never negative)</li>
 *   <li>{@code sale}: hash of limit, startsAt, endsAt (epoch ms); its presence means "loaded"</li>
 *   <li>{@code bought}: hash userId -> units the user holds (reserved or confirmed)</li>
 *   <li>{@code ledger}: hash orderId -> "userId|quantity|reservedAtMs", reservations not yet decided</li>
 *   <li>{@code pending}: sum of the ledger's quantities, kept by the scripts</li>
 *   <li>{@code rebuild-lock}, {@code rebuild-tokens}: the SKU's rebuild lock (its holder's fencing token, with a lease)
 *       and its token counter</li>
 * </ul>
 */
public record SkuKeys(long skuId) {

    public String stock() {
        return prefix() + "stock";
    }

    public String sale() {
        return prefix() + "sale";
    }

    public String bought() {
        return prefix() + "bought";
    }

    public String ledger() {
        return prefix() + "ledger";
    }

    public String pending() {
        return prefix() + "pending";
    }

    /** Ids of the stock adjustments applied to this SKU (each once). */
    public String adjustments() {
        return prefix() + "adjustments";
    }

    public String rebuildLock() {
        return prefix() + "rebuild-lock";
    }

    public String rebuildTokens() {
        return prefix() + "rebuild-tokens";
    }

    /** The KEYS argument every script of {@link LuaScript} takes, in this order. */
    public List<String> scriptKeys() {
        return List.of(stock(), sale(), bought(), ledger(), pending(), adjustments());
    }

    private String prefix() {
        return "seckill:{sku:" + skuId + "}:";
    }
}
