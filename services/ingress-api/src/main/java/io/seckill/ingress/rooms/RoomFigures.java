package io.seckill.ingress.rooms;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
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
 * Only rooms Redis holds are refreshed: a SKU found without one is remembered as such for one {@code refresh} and read
 * again when asked after, so SKUs without a room (or made up) never lengthen the refresh that real rooms wait on. At
 * most {@link #MOST_SKUS} SKUs are remembered, the least recently asked forgotten first. When Redis does not answer,
 * the last reading stands and the admission waits; {@code seckill.waiting.room.reading.age} shows the oldest reading.
 */
public final class RoomFigures implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RoomFigures.class);
    static final Duration FORGOTTEN_AFTER = Duration.ofMinutes(1);
    static final long MOST_SKUS = 10_000;

    private final WaitingRoom rooms;
    private final SaleStore saleStore;
    private final Clock clock;
    private final Cache<Long, Reading> readings;
    private final ScheduledExecutorService refresher;
    private final ScheduledFuture<?> refreshing;
    private volatile boolean failing;

    /** One SKU's latest reading of its room (none: it has no room) and when it was taken. */
    private static final class Reading {
        volatile Optional<RoomNow> now;
        volatile long readAtNanos;

        Reading(Optional<RoomNow> now) {
            this.now = now;
            this.readAtNanos = System.nanoTime();
        }
    }

    public RoomFigures(WaitingRoom rooms, SaleStore saleStore, Clock clock, Duration refresh, MeterRegistry meters) {
        this.rooms = rooms;
        this.saleStore = saleStore;
        this.clock = clock;
        this.readings = Caffeine.newBuilder()
                .maximumSize(MOST_SKUS)
                .expireAfter(new Expiry<Long, Reading>() {
                    @Override
                    public long expireAfterCreate(Long skuId, Reading reading, long currentTime) {
                        return (reading.now.isPresent() ? FORGOTTEN_AFTER : refresh).toNanos();
                    }

                    @Override
                    public long expireAfterUpdate(Long skuId, Reading reading, long currentTime, long currentDuration) {
                        return currentDuration;
                    }

                    @Override
                    public long expireAfterRead(Long skuId, Reading reading, long currentTime, long currentDuration) {
                        return reading.now.isPresent() ? FORGOTTEN_AFTER.toNanos() : currentDuration;
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
     */
    public Optional<RoomNow> of(long skuId) {
        return readings.get(skuId, sku -> new Reading(read(sku))).now;
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
        try {
            readings.asMap().forEach((skuId, reading) -> {
                if (reading.now.isPresent()) {
                    reading.now = read(skuId);
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
                .filter(reading -> reading.now.isPresent())
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
