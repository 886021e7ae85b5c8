package io.seckill.buyeraccess.passes;

/**
 * Where a queue ticket places its buyer: drawn in the pre-queue (those who joined before the start, in an order no one
 * can foresee or choose), or the n-th in line of one of the room's buckets (those who joined later, in order of
 * arrival).
 */
public sealed interface QueuePlace {

    /**
     * A place in the pre-queue: the buyers of the pre-queue go in the order of their draws.
     * @param draw uniform over [0, 1): the share of the pre-queue ahead of this buyer
     */
    record Drawn(double draw) implements QueuePlace {
    }

    /** The {@code n}-th buyer to line up in bucket {@code bucket} of a room of {@code buckets}. */
    record Arrived(int bucket, int buckets, long n) implements QueuePlace {
    }
}
