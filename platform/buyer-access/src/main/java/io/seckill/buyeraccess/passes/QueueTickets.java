package io.seckill.buyeraccess.passes;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * Waiting-room tickets: {@code q2.SKU.LINE.PLACE.EXPIRES_MS.SIGNATURE}, signed over the buyer, the SKU, the room's
 * line, the place and the expiry, so a ticket is good for one buyer, one sale, one line of its room, one place, until
 * it expires, and is checked with one HMAC by any ingress with the key, none storing it. {@code LINE} is the id of the
 * line the room had when the ticket was issued: a room that started its line over (made anew after Redis lost it, or
 * defined over other buckets) refuses it. {@code PLACE} is {@code d} and the pre-queue draw in hex, or
 * {@code a<bucket>x<buckets>x<n>} for the n-th in line of a bucket. The buyer is not in the ticket: one shown by anyone
 * else fails its signature. Any other ticket (a {@code q1} one, issued before lines had ids) is refused: joining again
 * gives the buyer the same place on a ticket of today's form.
 */
public final class QueueTickets {

    /** The request header that shows a ticket: on the pass route and where the buyer asks where they stand. */
    public static final String HEADER = "Seckill-Queue-Ticket";
    private static final String VERSION = "q2";
    private static final Pattern LINE = Pattern.compile("[0-9a-f]{1,16}");
    /** A draw's 53 bits: as many as a double holds exactly. */
    private static final double DRAWS = 0x1p53;

    private final PassKey key;

    public QueueTickets(PassKey key) {
        this.key = key;
    }

    /** The buyer's draw for the sale's pre-queue: the same each time they join, foreseen by no one without the key. */
    public QueuePlace.Drawn draw(String buyer, long skuId) {
        return new QueuePlace.Drawn(
                (key.number("queue-draw|" + buyer.length() + ":" + buyer + "|" + skuId) >>> 11) / DRAWS);
    }

    /** What a ticket says: the line of the room it was issued in, and the buyer's place in it. */
    public record Ticket(String line, QueuePlace place) {
    }

    /**
     * A ticket placing {@code buyer} at {@code place} in line {@code line} of SKU {@code skuId}'s room until
     * {@code expiresAt}.
     */
    public String issue(String buyer, long skuId, String line, QueuePlace place, Instant expiresAt) {
        if (!LINE.matcher(line).matches()) {
            throw new IllegalArgumentException("a line id is 1-16 hex digits: " + line);
        }
        String placed = written(place);
        return VERSION + "." + skuId + "." + line + "." + placed + "." + expiresAt.toEpochMilli() + "."
                + key.sign(signed(buyer, skuId, line, placed, expiresAt.toEpochMilli()));
    }

    /**
     * What a ticket that is this buyer's, for this sale, unaltered and unexpired, says.
     * @param shown the header's value, null when absent
     * @throws Problem QUEUE_TICKET_INVALID, saying why, for any other ticket or none
     */
    public Ticket ticket(String shown, String buyer, long skuId, Instant now) {
        if (shown == null) {
            throw invalid("no " + HEADER + " header: join the queue first");
        }
        String[] parts = shown.split("\\.", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0]) || !LINE.matcher(parts[2]).matches()) {
            throw invalid("the " + HEADER + " header is not a queue ticket of this release: join the queue again");
        }
        String line = parts[2];
        long ticketSku;
        long expiresMs;
        QueuePlace place;
        try {
            ticketSku = Long.parseLong(parts[1]);
            place = read(parts[3]);
            expiresMs = Long.parseLong(parts[4]);
        } catch (IllegalArgumentException e) {
            throw invalid("the " + HEADER + " header is not a queue ticket");
        }
        if (ticketSku != skuId) {
            throw invalid("the ticket is for SKU " + ticketSku + ", not " + skuId);
        }
        if (!key.verifies(signed(buyer, skuId, line, parts[3], expiresMs), parts[5])) {
            throw invalid("the ticket was not issued to this buyer, or was altered");
        }
        if (now.toEpochMilli() >= expiresMs) {
            throw invalid("the ticket expired at " + Instant.ofEpochMilli(expiresMs))
                    .with("expiredAt", Instant.ofEpochMilli(expiresMs).toString());
        }
        return new Ticket(line, place);
    }

    private static String written(QueuePlace place) {
        return switch (place) {
            case QueuePlace.Drawn drawn -> "d" + Long.toHexString((long) (drawn.draw() * DRAWS));
            case QueuePlace.Arrived arrived -> "a" + arrived.bucket() + "x" + arrived.buckets() + "x" + arrived.n();
        };
    }

    /** @throws IllegalArgumentException for anything {@link #written} does not write */
    private static QueuePlace read(String placed) {
        if (placed.startsWith("d")) {
            long draw = Long.parseLong(placed.substring(1), 16);
            if (draw < 0 || draw >= (long) DRAWS) {
                throw new IllegalArgumentException("draw out of range");
            }
            return new QueuePlace.Drawn(draw / DRAWS);
        }
        String[] arrived = placed.startsWith("a") ? placed.substring(1).split("x", -1) : new String[0];
        if (arrived.length != 3) {
            throw new IllegalArgumentException("not a place");
        }
        int bucket = Integer.parseInt(arrived[0]);
        int buckets = Integer.parseInt(arrived[1]);
        long n = Long.parseLong(arrived[2]);
        if (buckets < 1 || bucket < 0 || bucket >= buckets || n < 1) {
            throw new IllegalArgumentException("place out of range");
        }
        return new QueuePlace.Arrived(bucket, buckets, n);
    }

    private static String signed(String buyer, long skuId, String line, String placed, long expiresMs) {
        return "queue2|" + buyer.length() + ":" + buyer + "|" + skuId + "|" + line + "|" + placed + "|" + expiresMs;
    }

    private static Problem invalid(String why) {
        return new Problem(ErrorCode.QUEUE_TICKET_INVALID, why);
    }
}
