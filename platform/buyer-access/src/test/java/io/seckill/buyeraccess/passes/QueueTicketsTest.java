package io.seckill.buyeraccess.passes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

class QueueTicketsTest {

    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");
    private static final Instant ENDS = NOW.plusSeconds(3600);
    private final QueueTickets tickets = new QueueTickets(PassKey.derivedFrom("a-token-secret-of-at-least-32-bytes!"));

    @Test
    void aTicketPlacesItsBuyerInItsSaleUntilItExpires() {
        QueuePlace drawn = tickets.draw("alice", 42);
        QueuePlace arrived = new QueuePlace.Arrived(2, 3, 17);
        String preQueue = tickets.issue("alice", 42, "5eed", drawn, ENDS);
        String inLine = tickets.issue("alice", 42, "5eed", arrived, ENDS);
        assertThat(tickets.ticket(preQueue, "alice", 42, NOW)).isEqualTo(new QueueTickets.Ticket("5eed", drawn));
        assertThat(tickets.ticket(inLine, "alice", 42, NOW)).isEqualTo(new QueueTickets.Ticket("5eed", arrived));

        assertRefused(() -> tickets.ticket(inLine, "bob", 42, NOW), "not issued to this buyer");
        assertRefused(() -> tickets.ticket(inLine, "alice", 43, NOW), "for SKU 42");
        assertRefused(() -> tickets.ticket(inLine, "alice", 42, ENDS), "expired");
        assertRefused(() -> tickets.ticket(inLine.replace(".a2x3x17.", ".a2x3x1."), "alice", 42, NOW), "altered");
        assertRefused(
                () -> tickets.ticket(
                        inLine.replace(
                                "." + ENDS.toEpochMilli() + ".",
                                "." + ENDS.plusSeconds(60).toEpochMilli() + "."),
                        "alice",
                        42,
                        NOW),
                "altered");
        assertRefused(() -> tickets.ticket(null, "alice", 42, NOW), "join the queue first");
        assertRefused(() -> tickets.ticket("q1.42.a3x3x1.1.sig", "alice", 42, NOW), "not a queue ticket");
        assertRefused(() -> tickets.ticket("q1.42.zz.1.sig", "alice", 42, NOW), "not a queue ticket");
        assertRefused(() -> tickets.ticket("p1.42.1.sig", "alice", 42, NOW), "not a queue ticket");
        assertRefused(
                () -> tickets.ticket(inLine.replace(".5eed.", ".5eee."), "alice", 42, NOW),
                "altered");
    }

    @Test
    void aTicketOfAnotherKeyIsRefused() {
        String foreign = new QueueTickets(PassKey.of("another-deployments-pass-secret-32-bytes"))
                .issue("alice", 42, "5eed", new QueuePlace.Arrived(0, 1, 1), ENDS);
        assertRefused(() -> tickets.ticket(foreign, "alice", 42, NOW), "not issued to this buyer");
    }

    @Test
    void aBuyersDrawIsTheSameEachTimeAndDrawsSpreadEvenly() {
        assertThat(tickets.draw("alice", 42)).isEqualTo(tickets.draw("alice", 42));
        assertThat(tickets.draw("alice", 42)).isNotEqualTo(tickets.draw("alice", 43));
        double[] draws = IntStream.range(0, 10_000)
                .mapToDouble(i -> tickets.draw("buyer-" + i, 42).draw())
                .toArray();
        assertThat(Arrays.stream(draws).allMatch(draw -> draw >= 0 && draw < 1)).as("every draw in [0, 1)").isTrue();
        // The first of the buyers by name is no likelier to be drawn early: each decile holds a tenth, give or take.
        for (int decile = 0; decile < 10; decile++) {
            double from = decile / 10.0;
            long inDecile = Arrays.stream(draws).filter(d -> d >= from && d < from + 0.1).count();
            assertThat(inDecile).as("decile %d", decile).isBetween(880L, 1120L);
        }
    }

    private static void assertRefused(ThrowingSupplier<QueueTickets.Ticket> check, String why) {
        assertThatThrownBy(check::get)
                .isInstanceOf(Problem.class)
                .hasMessageContaining(why)
                .satisfies(e -> assertThat(((Problem) e).code()).isEqualTo(ErrorCode.QUEUE_TICKET_INVALID));
    }
}
