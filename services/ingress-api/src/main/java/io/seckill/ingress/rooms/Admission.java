package io.seckill.ingress.rooms;

import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a buyer may have a sale's pass yet: always, for a sale without a waiting room; for one with a room, once
 * the room has admitted the place on the buyer's ticket. Answered from the room as this ingress last read it.
 */
public final class Admission {

    private final RoomFigures rooms;
    private final QueueTickets tickets;

    public Admission(RoomFigures rooms, QueueTickets tickets) {
        this.rooms = rooms;
        this.tickets = tickets;
    }

    /** Where a buyer joins SKU {@code skuId}'s waiting room. */
    public static String queuePath(long skuId) {
        return "/api/v1/skus/" + skuId + "/queue";
    }

    /**
     * @param shownTicket the {@link QueueTickets#HEADER} header's value, null when absent
     * @throws Problem NOT_YET_ADMITTED with the buyer's place (or no ticket), QUEUE_TICKET_INVALID, SOLD_OUT
     */
    public void check(String shownTicket, String buyer, long skuId, Instant now) {
        Optional<RoomNow> room = rooms.of(skuId);
        if (room.isEmpty()) {
            return;
        }
        if (shownTicket == null) {
            throw new Problem(
                            ErrorCode.NOT_YET_ADMITTED,
                            "SKU " + skuId + " has a waiting room: join its queue and show the ticket in the "
                                    + QueueTickets.HEADER + " header")
                    .with("queueUrl", queuePath(skuId));
        }
        QueueStanding standing =
                QueueStanding.of(tickets.ticket(shownTicket, buyer, skuId, now), room.get(), now.toEpochMilli());
        switch (standing.status()) {
            case ADMITTED -> {
                // The room let this buyer through.
            }
            case SOLD_OUT -> throw new Problem(ErrorCode.SOLD_OUT, "SKU " + skuId + " is sold out");
            case WAITING ->
                throw new Problem(
                                ErrorCode.NOT_YET_ADMITTED,
                                "place " + standing.place() + " is not admitted yet; " + standing.ahead() + " ahead")
                        .with("place", standing.place())
                        .with("ahead", standing.ahead())
                        .with("estimatedWaitSeconds", standing.estimatedWaitSeconds())
                        .with(Problem.RETRY_AFTER_SECONDS, standing.retryAfterSeconds());
        }
    }
}
