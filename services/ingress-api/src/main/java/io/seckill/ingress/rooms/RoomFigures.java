package io.seckill.ingress.rooms;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
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
 * Only rooms are refreshed (those Redis holds, and those it lost, until they are back): a SKU found without one is
 * remembered as such for one {@code refresh} and read again when asked after, so SKUs without a room (or made up)
 * never lengthen the refresh that real rooms wait on. At most {@link #MOST_SKUS} SKUs are remembered, the least
 * recently asked forgotten first. When Redis does not answer, the last reading stands and the admission waits;
 * {@code seckill.waiting.room.reading.age} shows the oldest reading.
 * The room fails closed: a sale MySQL defines with a room whose room Redis does not hold (lost with its primary, not
 * restored yet) is answered 503 {@code SALE_RESTORING}, never as a sale anyone may enter.
 */
public final class RoomFigures implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoomFigures.class);
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(1);
    static final long MOST_SKUS = 10_000;

    private final WaitingRoom rooms;
    private final KnownSkus knownSkus;
    private final SaleStore saleStore;
    private final Clock clock;
    private final Cache<Long, Reading> readings;
    private final ScheduledExecutorService refresher;
    private final ScheduledFuture<?> refreshing;
    private volatile boolean failing;

    /** What one reading found: the room, none, or a room the sale's definition has and Redis does not. */
    private record Seen(Optional<RoomNow> now, boolean lost) {
    }

    /**
     * One SKU's latest reading of its room and when it was taken. A room, or one lost, is watched: read again each
     * refresh until no buyer asked for {@link #FORGOTTEN_AFTER}; a SKU without one is read again when asked after a
     * refresh.
     */
    private static final class Reading {
        final boolean watched;
        volatile Seen seen;
        volatile long readAtNanos;

        Reading(Seen seen) {
            this.watched = seen.now().isPresent() || seen.lost();
            this.seen = seen;
            this.readAtNanos = System.nanoTime();
        }
    }

    public RoomFigures(
            WaitingRoom rooms,
            KnownSkus knownSkus,
            SaleStore saleStore,
            Clock clock,
            Duration refresh,
            MeterRegistry meters) {
        this.rooms = rooms;
        this.knownSkus = knownSkus;
        this.saleStore = saleStore;
        this.clock = clock;
        this.readings = Caffeine.newBuilder()
                .maximumSize(MOST_SKUS)
                .expireAfter(new Expiry<Long, Reading>() {
                    @Override
                    public long expireAfterCreate(Long skuId, Reading reading, long currentTime) {
                        return (reading.watched ? FORGOTTEN_AFTER : refresh).toNanos();
                    }

                    @Override
                    public long expireAfterUpdate(Long skuId, Reading reading, long currentTime, long currentDuration) {
                        return currentDuration;
                    }

                    @Override
                    public long expireAfterRead(Long skuId, Reading reading, long currentTime, long currentDuration) {
                        return reading.watched ? FORGOTTEN_AFTER.toNanos() : currentDuration;
                    }
                })
                .build();
        Gauge.builder("seckill.waiting.room.reading.age", this, RoomFigures::oldestReadingSeconds)
                .description("age of the oldest reading of a waiting room this ingress answers from")
                .baseUnit("seconds")
                .register(meters);
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
     * @throws Problem SALE_RESTORING when the sale's definition has a room Redis does not hold
     */
    public Optional<RoomNow> of(long skuId) {
        Seen seen = readings.get(skuId, sku -> new Reading(read(sku))).seen;
        if (seen.lost()) {
            throw new Problem(
                            ErrorCode.SALE_RESTORING,
                            "the waiting room of SKU " + skuId + " is being restored; try again shortly")
                    .with(Problem.RETRY_AFTER_SECONDS, 1);
        }
        return seen.now();
    }

    private Seen read(long skuId) {
        return switch (rooms.read(skuId)) {
            case WaitingRoom.Open open -> {
                WaitingRoom.Line line = rooms.line(skuId, open.room().buckets());
                long admitted = rooms.admit(skuId, clock.millis(), line);
                yield new Seen(
                        Optional.of(new RoomNow(open.room(), line, admitted, saleStore.state(skuId).stock() == 0)),
                        false);
            }
            case WaitingRoom.NoRoom none -> new Seen(Optional.empty(), false);
            case WaitingRoom.NotHeld notHeld -> new Seen(Optional.empty(), knownSkus.definedWithRoom(skuId));
        };
    }

    private void refreshAll() {
        try {
            readings.asMap().forEach((skuId, reading) -> {
                if (reading.watched) {
                    reading.seen = read(skuId);
                    reading.readAtNanos = System.nanoTime();
                }
            });
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

    private double oldestReadingSeconds() {
        long now = System.nanoTime();
        return readings.asMap().values().stream()
                .filter(reading -> reading.watched)
                .mapToLong(reading -> now - reading.readAtNanos)
                .max()
                .orElse(0) / 1e9;
    }

    @Override
    public void close() {
        refreshing.cancel(false);
        refresher.shutdownNow();
    }
}
