package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A waiting room's scripts on a real Redis: joining once, and an admission that counts time once, from any caller. */
class WaitingRoomIT {

    private static final long HOUR = 3_600_000;
    private final WaitingRoom rooms = new WaitingRoom(new LuaRunner(RedisFixture.REDIS));
    private final long start = System.currentTimeMillis();

    private long room(int rate, int buckets) {
        long sku = RedisFixture.newSkuId();
        rooms.define(sku, 1, rate, buckets, start, start + HOUR);
        return sku;
    }

    @Test
    void joiningAgainKeepsThePlaceAndAfterTheStartBuyersLineUpInOrder() {
        long sku = room(10, 3);
        WaitingRoom.Room room = rooms.room(sku).orElseThrow();
        WaitingRoom.Joined early = rooms.join(room, sku, "early", true);
        assertThat(early.joinedNow()).isTrue();
        assertThat(early.inPreQueue()).isTrue();
        assertThat(rooms.join(room, sku, "early", false))
                .isEqualTo(new WaitingRoom.Joined(false, early.bucket(), 0));

        List<WaitingRoom.Joined> late = IntStream.range(0, 30)
                .mapToObj(i -> rooms.join(room, sku, "late-" + i, false))
                .toList();
        assertThat(late).allSatisfy(joined -> assertThat(joined.place()).isPositive());
        WaitingRoom.Line line = rooms.line(sku, room.buckets());
        assertThat(line.preQueue()).isEqualTo(1);
        assertThat(line.joined()).isEqualTo(31);
        // Within a bucket, the n-th to arrive is n: every bucket's places run 1, 2, 3... with none taken twice.
        for (int bucket = 0; bucket < 3; bucket++) {
            int b = bucket;
            assertThat(late.stream().filter(j -> j.bucket() == b).map(WaitingRoom.Joined::place))
                    .containsExactlyElementsOf(
                            IntStream.rangeClosed(1, line.arrived().get(b).intValue())
                                    .mapToObj(Long::valueOf)
                                    .toList());
        }
        assertThat(rooms.join(room, sku, "late-3", false))
                .isEqualTo(new WaitingRoom.Joined(
                        false, late.get(3).bucket(), late.get(3).place()));
    }

    @Test
    void aLatePreQueueJoinLinesUpOnceSomeoneOfItsBucketArrivedAfterTheStart() {
        long sku = room(10, 1);
        WaitingRoom.Room room = rooms.room(sku).orElseThrow();
        rooms.join(room, sku, "prompt", false);
        // An ingress whose clock runs behind still thinks the sale has not started.
        assertThat(rooms.join(room, sku, "behind", true).place()).isEqualTo(2);
    }

    @Test
    void theAdmissionMovesAtItsRateOnceForAllCallersAndNeverPastTheLine() throws Exception {
        long sku = room(100, 1);
        WaitingRoom.Room room = rooms.room(sku).orElseThrow();
        for (int i = 0; i < 1_000; i++) {
            rooms.join(room, sku, "buyer-" + i, false);
        }
        WaitingRoom.Line line = rooms.line(sku, 1);
        assertThat(rooms.admit(sku, start - 5_000, line)).as("before the start").isZero();
        // Eight callers each moving it on to the same five seconds after the start, all at once: 500 admitted.
        List<CompletableFuture<Long>> callers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            callers.add(CompletableFuture.supplyAsync(() -> rooms.admit(sku, start + 5_000, line)));
        }
        for (CompletableFuture<Long> caller : callers) {
            caller.get();
        }
        assertThat(rooms.admit(sku, start + 5_000, line)).isEqualTo(500);
        assertThat(rooms.admit(sku, start + 4_000, line)).as("a caller whose clock is behind").isEqualTo(500);
        assertThat(rooms.admit(sku, start + 7_500, line)).isEqualTo(750);
        assertThat(rooms.admit(sku, start + 60_000, line)).as("never past the last place").isEqualTo(1_000);

        // An empty room banks nothing: buyers who come later are admitted at the rate, from when they came.
        for (int i = 1_000; i < 1_200; i++) {
            rooms.join(room, sku, "buyer-" + i, false);
        }
        assertThat(rooms.admit(sku, start + 61_000, rooms.line(sku, 1))).isEqualTo(1_100);
    }

    /** A room is sale state: no lifetime, so a memory limit under volatile-lru never evicts it or its places. */
    @Test
    void aRoomAndItsPlacesHaveNoLifetimeAndARedefinitionKeepsItsLine() {
        long sku = room(10, 2);
        WaitingRoom.Room room = rooms.room(sku).orElseThrow();
        rooms.join(room, sku, "keeper", false);
        rooms.define(sku, 2, 20, 2, start, start + HOUR);

        assertThat(rooms.room(sku).orElseThrow().line()).isEqualTo(room.line());
        assertThat(RedisFixture.REDIS.pttl(SkuKeys.room(sku))).isEqualTo(-1);
        SkuKeys home = new SaleLayout(sku, 2).homeOf("keeper");
        assertThat(RedisFixture.REDIS.pttl(home.queue())).isEqualTo(-1);
        assertThat(RedisFixture.REDIS.pttl(home.queueCounts())).isEqualTo(-1);
    }

    @Test
    void aNewerDefinitionsRoomStaysAndARoomOfRateZeroIsNone() {
        long sku = room(10, 1);
        String firstLine = rooms.room(sku).orElseThrow().line();
        rooms.define(sku, 5, 50, 2, start, start + HOUR);
        String secondLine = rooms.room(sku).orElseThrow().line();
        rooms.define(sku, 4, 10, 1, start, start + HOUR);
        assertThat(rooms.room(sku)).contains(new WaitingRoom.Room(50, start, start + HOUR, 2, secondLine));
        assertThat(secondLine).as("a definition over other buckets starts a new line").isNotEqualTo(firstLine);
        rooms.define(sku, 6, null, 2, start, start + HOUR);
        assertThat(rooms.room(sku)).isEmpty();
        assertThat(rooms.read(sku)).isInstanceOf(WaitingRoom.NoRoom.class);
        assertThat(rooms.read(sku + 1)).isInstanceOf(WaitingRoom.NotHeld.class);
        assertThat(rooms.admit(sku, start + 1_000, new WaitingRoom.Line(5, List.of(0L, 0L)))).isZero();
    }
}
