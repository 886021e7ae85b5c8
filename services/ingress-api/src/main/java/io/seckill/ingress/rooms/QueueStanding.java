package io.seckill.ingress.rooms;

import io.seckill.buyeraccess.passes.QueuePlace;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;

/**
 * Where a ticket's buyer stands in a room as last read: their place in the whole line, how many are ahead, and how long
 * the room's rate takes to reach them.
 * @param place the buyer's place: admitted once the room has admitted this many
 * @param ahead buyers ahead of this one not admitted yet
 * @param waiting buyers in the room not admitted yet
 * @param estimatedWaitSeconds until the admission reaches this buyer (from the start, for a sale not started); 0 once
 *                             admitted
 */
public record QueueStanding(
        Status status, long place, long ahead, long admitted, long waiting, long estimatedWaitSeconds) {

    /** What a buyer in a room may do now. */
    public enum Status {
        /** Not admitted yet: ask again after the answer's {@code Retry-After}. */
        WAITING,
        /** Admitted: may get a sale pass. */
        ADMITTED,
        /** No unit is left: nobody needs to wait any longer. */
        SOLD_OUT
    }

    private static final long MOST_SECONDS_BETWEEN_POLLS = 5;

    /**
     * @throws Problem QUEUE_TICKET_STALE for a ticket of another line than the room's: the room started its line over
     *                 since (made anew after Redis lost it, or the sale defined over other buckets), so its place is
     *                 nobody's
     */
    public static QueueStanding of(QueueTickets.Ticket ticket, RoomNow room, long nowMs) {
        if (!ticket.line().equals(room.room().line())) {
            throw new Problem(
                    ErrorCode.QUEUE_TICKET_STALE,
                    "the waiting room started its line over since this ticket was issued (the sale was defined over"
                            + " other buckets, or the room was restored): join the queue again");
        }
        long place = switch (ticket.place()) {
            case QueuePlace.Drawn drawn -> (long) Math.floor(drawn.draw() * room.line().preQueue()) + 1;
            case QueuePlace.Arrived arrived -> room.line().placeOf(arrived.bucket(), arrived.n());
        };
        long admitted = room.admitted();
        long waiting = Math.max(0, room.line().joined() - admitted);
        if (place <= admitted) {
            return new QueueStanding(
                    room.soldOut() ? Status.SOLD_OUT : Status.ADMITTED, place, 0, admitted, waiting, 0);
        }
        long untilStartMs = Math.max(0, room.room().startsAtMs() - nowMs);
        long toAdmit = place - admitted;
        long seconds = (untilStartMs + 999) / 1000
                + (toAdmit + room.room().admissionPerSecond() - 1) / room.room().admissionPerSecond();
        return new QueueStanding(
                room.soldOut() ? Status.SOLD_OUT : Status.WAITING, place, toAdmit - 1, admitted, waiting, seconds);
    }

    /**
     * How long a waiting buyer should wait before asking again: a tenth of the wait, between one second and
     * {@value #MOST_SECONDS_BETWEEN_POLLS}, so that the sale selling out reaches every buyer within seconds.
     */
    public long retryAfterSeconds() {
        return Math.clamp(estimatedWaitSeconds / 10, 1, MOST_SECONDS_BETWEEN_POLLS);
    }
}
