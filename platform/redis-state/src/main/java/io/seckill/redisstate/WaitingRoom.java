package io.seckill.redisstate;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A sale's waiting room in Redis. The room itself ({@link SkuKeys#room}) holds the rate a sale's definition set and
 * how many buyers it has admitted; the buyers are counted in their home buckets ({@link SkuKeys#queue}), so joining
 * touches one bucket's slot and no key every join shares. Buyers who join before the start wait in a pre-queue whose
 * order is drawn from their tickets at the start; those who join later line up in their bucket, and the buckets' lines
 * interleave: place {@code pre-queue + (n - 1) * buckets + bucket + 1} for the n-th of a bucket.
 */
public final class WaitingRoom {

    private static final long THOUSANDTHS = 1_000;

    private final LuaRunner lua;

    public WaitingRoom(LuaRunner lua) {
        this.lua = lua;
    }

    /**
     * A sale's room as defined: buyers admitted a second, its window, how many buckets its buyers line up in, and the
     * id of its line, which a ticket carries: a line started over (a room made anew, other buckets) has another.
     */
    public record Room(int admissionPerSecond, long startsAtMs, long endsAtMs, int buckets, String line) {
    }

    /** What Redis holds of a sale's room. */
    public sealed interface Reading {
    }

    /** The sale's definition set no room (a rate of 0). */
    public record NoRoom() implements Reading {
    }

    /**
     * No room key at all: a sale loaded before rooms existed, or a room Redis lost (with its primary) and the
     * reconciler has not restored yet. Which of the two, MySQL's definition says.
     */
    public record NotHeld() implements Reading {
    }

    /** The sale's room. */
    public record Open(Room room) implements Reading {
    }

    /**
     * Opens the sale's room as MySQL's definition {@code version} says, admission starting at the sale's start, or
     * closes it when the sale has none ({@code admissionPerSecond} null); a newer definition's room stays. Buyers who
     * joined keep their places; a definition over another number of buckets starts the line over, under a new id, as
     * does a room made anew (its buyers' tickets are of another line).
     */
    public void define(
            long skuId, long version, Integer admissionPerSecond, int buckets, long startsAtMs, long endsAtMs) {
        lua.run(
                LuaScript.ROOM_DEFINE,
                List.of(SkuKeys.room(skuId)),
                List.of(
                        Long.toString(version),
                        Integer.toString(admissionPerSecond == null ? 0 : admissionPerSecond),
                        Long.toString(startsAtMs),
                        Long.toString(endsAtMs),
                        Integer.toString(buckets),
                        Long.toHexString(ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE))));
    }

    /** The sale's room, if it has one (a room Redis does not hold is none here: {@link #read} tells them apart). */
    public Optional<Room> room(long skuId) {
        return read(skuId) instanceof Open open ? Optional.of(open.room()) : Optional.empty();
    }

    /** What Redis holds of the sale's room, in one call. */
    public Reading read(long skuId) {
        List<String> fields =
                lua.redis().hmget(SkuKeys.room(skuId), "rate", "startsAt", "endsAt", "buckets", "line");
        if (fields.get(0) == null) {
            return new NotHeld();
        }
        if ("0".equals(fields.get(0))) {
            return new NoRoom();
        }
        return new Open(new Room(
                Integer.parseInt(fields.get(0)),
                Long.parseLong(fields.get(1)),
                Long.parseLong(fields.get(2)),
                Integer.parseInt(fields.get(3)),
                // A room defined before lines had ids: its one line so far.
                fields.get(4) == null ? "0" : fields.get(4)));
    }

    /** A buyer's place as the room gave it: in the pre-queue ({@code place} 0), or the n-th of their bucket's line. */
    public record Joined(boolean joinedNow, int bucket, long place) {

        public boolean inPreQueue() {
            return place == 0;
        }
    }

    /**
     * The buyer joins the room in their home bucket, in one call; joining again answers the place given the first time.
     * @param beforeStart whether the sale has not started by the caller's clock: the buyer joins the pre-queue
     */
    public Joined join(Room room, long skuId, String userId, boolean beforeStart) {
        SkuKeys home = new SaleLayout(skuId, room.buckets()).homeOf(userId);
        List<?> reply = (List<?>) lua.run(
                LuaScript.QUEUE_JOIN,
                List.of(home.queue(), home.queueCounts()),
                List.of(userId, beforeStart ? "pre" : "arrived"));
        return new Joined((Long) reply.get(0) == 1, home.bucket(), (Long) reply.get(1));
    }

    /** Who is in the room: the pre-queue's size and how many lined up in each bucket. */
    public record Line(long preQueue, List<Long> arrived) {

        /** The place in the whole line of the {@code n}-th buyer to line up in {@code bucket}. */
        public long placeOf(int bucket, long n) {
            return preQueue + (n - 1) * arrived.size() + bucket + 1;
        }

        /** The highest place anyone holds: the admission never moves past it. */
        public long highestPlace() {
            long highest = preQueue;
            for (int bucket = 0; bucket < arrived.size(); bucket++) {
                if (arrived.get(bucket) > 0) {
                    highest = Math.max(highest, placeOf(bucket, arrived.get(bucket)));
                }
            }
            return highest;
        }

        /** Everyone who joined. */
        public long joined() {
            return preQueue + arrived.stream().mapToLong(Long::longValue).sum();
        }
    }

    /** Reads the room's line, one call a bucket. */
    public Line line(long skuId, int buckets) {
        long preQueue = 0;
        List<Long> arrived = new ArrayList<>(buckets);
        for (SkuKeys bucket : new SaleLayout(skuId, buckets).all()) {
            List<String> counts = lua.redis().hmget(bucket.queueCounts(), "pre", "arrived");
            preQueue += counts.get(0) == null ? 0 : Long.parseLong(counts.get(0));
            arrived.add(counts.get(1) == null ? 0 : Long.parseLong(counts.get(1)));
        }
        return new Line(preQueue, List.copyOf(arrived));
    }

    /**
     * Moves the room's admission on to {@code nowMs}, at its rate and never past the line's highest place.
     * @return how many buyers are admitted so far (those whose place is at most this)
     */
    public long admit(long skuId, long nowMs, Line line) {
        List<?> reply = (List<?>) lua.run(
                LuaScript.ROOM_ADVANCE,
                List.of(SkuKeys.room(skuId)),
                List.of(Long.toString(nowMs), Long.toString(line.highestPlace() * THOUSANDTHS)));
        return (Long) reply.get(1) / THOUSANDTHS;
    }
}
