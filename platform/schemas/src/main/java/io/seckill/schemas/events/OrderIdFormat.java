package io.seckill.schemas.events;

import java.util.regex.Pattern;

/**
 * What an order id looks like everywhere it travels (events, URLs, dead letters): a lower-case UUID,
 * as the ingress makes them and as the events' JSON Schemas say.
 */
public final class OrderIdFormat {

    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private OrderIdFormat() {
    }

    public static boolean isValid(String orderId) {
        return orderId != null && UUID.matcher(orderId).matches();
    }
}
