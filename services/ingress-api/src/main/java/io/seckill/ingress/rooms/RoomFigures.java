package io.seckill.ingress.rooms;

import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waiting rooms this ingress answers for, each read from Redis once per {@code refresh} (moving
 * its admission on as it does), so that a buyer's poll, however often, costs Redis nothing. A room is read the first
 * time a buyer asks about it, then refreshed in the background until no buyer asked for {@link #FORGOTTEN_AFTER}.
 * When Redis does not answer, the last reading stands and the admission waits.
 */
public final class RoomFigures implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoomFigures.class);
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(1);

    private final WaitingRoom rooms;
    private final SaleStore saleStore;
    private final Clock clock;
    private final Map<Long, Watched> watched = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher;
    private final ScheduledFuture<?> refreshing;
    private volatile boolean failing;

    /** One room's latest reading and when a buyer last asked about it. */
    private static final class Watched {
        volatile Optional<RoomNow> now;
        volatile long askedAtNanos;

        Watched(Optional<RoomNow> now) {
            this.now = now;
            this.askedAtNanos = System.nanoTime();
        }
    }

    public RoomFigures(WaitingRoom rooms, SaleStore saleStore, Clock clock, Duration refresh) {
        this.rooms = rooms;
        this.saleStore = saleStore;
        this.clock = clock;
        this.refresher = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform()
                .name("waiting-rooms")
                .daemon(true)
                .factory());
        this.refreshing = refresher.scheduleWithFixedDelay(
                this::refreshAll, refresh.toMillis(), refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The sale's room as last read; the first ask on this ingress reads it now.
     * @return empty when the sale has no waiting room
     */
    public Optional<RoomNow> of(long skuId) {
        Watched room = watched.computeIfAbsent(skuId, sku -> new Watched(read(sku)));
        room.askedAtNanos = System.nanoTime();
        return room.now;
    }

    private Optional<RoomNow> read(long skuId) {
        Optional<WaitingRoom.Room> room = rooms.room(skuId);
        if (room.isEmpty()) {
            return Optional.empty();
        }
        WaitingRoom.Line line = rooms.line(skuId, room.get().buckets());
        long admitted = rooms.admit(skuId, clock.millis(), line);
        return Optional.of(new RoomNow(room.get(), line, admitted, saleStore.state(skuId).stock() == 0));
    }

    private void refreshAll() {
        long forgottenBefore = System.nanoTime() - FORGOTTEN_AFTER.toNanos();
        watched.entrySet().removeIf(entry -> entry.getValue().askedAtNanos < forgottenBefore);
        try {
            watched.forEach((skuId, room) -> room.now = read(skuId));
            if (failing) {
                failing = false;
                LOG.info("waiting rooms read again from Redis");
            }
        } catch (RuntimeException e) {
            if (!failing) {
                failing = true;
                LOG.warn("waiting rooms could not be read from Redis; their admission waits until it answers: {}",
                        e.toString());
            }
        }
    }

    @Override
    public void close() {
        refreshing.cancel(false);
        refresher.shutdownNow();
    }
}
