package io.seckill.ingress.buying;

import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Time-ordered (version 7, RFC 9562) UUIDs for orders: 48 bits of Unix milliseconds, then 74 random
 * bits. The order id is the primary key of the outbox and the unique key of the orders table, and
 * InnoDB clusters rows by primary key: random (version 4) ids land all over a growing B-tree, each
 * insert a random page, while time-ordered ids append at its right edge.
 *
 * <p>UUID.randomUUID() would also draw from one synchronized SecureRandom that every winner of a
 * storm queues on; order ids need uniqueness, not secrecy (a buyer can only read their own orders),
 * so each thread's own generator serves. 74 random bits per millisecond make collisions negligible.
 */
public final class OrderIds {

    private static final Clock CLOCK = Clock.systemUTC();

    private OrderIds() {
    }

    static String next() {
        return next(CLOCK.millis());
    }

    static String next(long unixMillis) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (unixMillis << 16) | 0x7000L | (random.nextInt() & 0x0FFFL);
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }
}
