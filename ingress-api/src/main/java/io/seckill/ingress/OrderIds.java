package io.seckill.ingress;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Random (version 4) UUIDs for orders. UUID.randomUUID() draws from one synchronized SecureRandom,
 * which every winner of a storm would queue on. Order ids need uniqueness, not secrecy (a buyer can
 * only read their own orders), so 122 bits from the thread's own generator serve.
 */
final class OrderIds {

    private OrderIds() {
    }

    static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
