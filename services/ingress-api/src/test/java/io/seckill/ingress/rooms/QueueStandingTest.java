package io.seckill.ingress.rooms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.buyeraccess.passes.QueuePlace;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueueStandingTest {

    private static final long START = 1_000_000;
    /** 100 buyers a second, lines in 2 buckets. */
    private static final WaitingRoom.Room ROOM = new WaitingRoom.Room(100, START, START + 3_600_000, 2, "1");

    private static RoomNow room(long preQueue, long arrived0, long arrived1, long admitted, boolean soldOut) {
        return new RoomNow(ROOM, new WaitingRoom.Line(preQueue, List.of(arrived0, arrived1)), admitted, soldOut);
    }

    @Test
    void thePreQueueGoesByDrawAndTheLineAfterItByArrivalAcrossTheBuckets() {
        RoomNow room = room(1_000, 3, 2, 0, false);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Drawn(0.0)), room, START).place()).isEqualTo(1);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Drawn(0.4999)), room, START).place()).isEqualTo(500);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Drawn(0.9999)), room, START).place()).isEqualTo(1_000);
        // After the pre-queue, the buckets' lines interleave: bucket 0's first, bucket 1's first, bucket 0's second...
        assertThat(QueueStanding.of(ticket(new QueuePlace.Arrived(0, 2, 1)), room, START).place()).isEqualTo(1_001);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Arrived(1, 2, 1)), room, START).place()).isEqualTo(1_002);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Arrived(0, 2, 3)), room, START).place()).isEqualTo(1_005);
        assertThat(room.line().highestPlace()).isEqualTo(1_005);
        assertThat(room.line().joined()).isEqualTo(1_005);
    }

    @Test
    void aBuyerIsAdmittedOnceTheAdmissionReachesTheirPlace() {
        QueuePlace place = new QueuePlace.Arrived(1, 2, 1);
        QueueStanding waiting = QueueStanding.of(ticket(place), room(1_000, 3, 2, 500, false), START + 5_000);
        assertThat(waiting.status()).isEqualTo(QueueStanding.Status.WAITING);
        assertThat(waiting.ahead()).isEqualTo(501);
        assertThat(waiting.waiting()).isEqualTo(505);
        assertThat(waiting.estimatedWaitSeconds()).as("502 buyers at 100 a second").isEqualTo(6);
        assertThat(waiting.retryAfterSeconds()).isEqualTo(1);

        QueueStanding admitted = QueueStanding.of(ticket(place), room(1_000, 3, 2, 1_002, false), START + 10_000);
        assertThat(admitted.status()).isEqualTo(QueueStanding.Status.ADMITTED);
        assertThat(admitted.ahead()).isZero();
        assertThat(admitted.estimatedWaitSeconds()).isZero();
    }

    @Test
    void beforeTheStartTheWaitCountsFromTheStartAndPollsComeAtMostEveryFiveSeconds() {
        QueueStanding early =
                QueueStanding.of(ticket(new QueuePlace.Drawn(0.5)), room(1_000, 0, 0, 0, false), START - 600_000);
        assertThat(early.status()).isEqualTo(QueueStanding.Status.WAITING);
        assertThat(early.estimatedWaitSeconds()).isEqualTo(600 + 6);
        assertThat(early.retryAfterSeconds()).isEqualTo(5);
    }

    @Test
    void aSaleSoldOutTellsEveryoneWhateverTheirPlace() {
        assertThat(QueueStanding.of(ticket(new QueuePlace.Drawn(0.9)), room(1_000, 0, 0, 10, true), START).status())
                .isEqualTo(QueueStanding.Status.SOLD_OUT);
        assertThat(QueueStanding.of(ticket(new QueuePlace.Drawn(0.0)), room(1_000, 0, 0, 10, true), START).status())
                .isEqualTo(QueueStanding.Status.SOLD_OUT);
    }

    @Test
    void aTicketOfAnotherLineIsRefusedAsStale() {
        QueueTickets.Ticket earlier = new QueueTickets.Ticket("2", new QueuePlace.Arrived(0, 2, 1));
        assertThatThrownBy(() -> QueueStanding.of(earlier, room(0, 1, 0, 0, false), START))
                .isInstanceOfSatisfying(
                        Problem.class, problem -> assertThat(problem.code()).isEqualTo(ErrorCode.QUEUE_TICKET_STALE));
    }

    private static QueueTickets.Ticket ticket(QueuePlace place) {
        return new QueueTickets.Ticket(ROOM.line(), place);
    }
}
