package io.seckill.reconciler.repair;

import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.reconciler.jobs.Job;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.RedisEpoch;
import io.seckill.redisstate.SaleLayout;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.events.OrderFacts;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the sales of each Redis primary from MySQL when that primary lost its state ({@link RedisEpoch}: flushed,
 * restarted with or without data, replaced by its replica, or a rebuild asked for by an admin). Per SKU, from one
 * consistent MySQL snapshot: free stock = MySQL stock - the units of open outbox rows, the ledger = the open rows, each
 * buyer's units = confirmed purchases + open rows. The lost SKUs are closed first (refused to buyers, not loaded), and
 * MySQL is read only once {@code settle} has passed: an order reserved before the close has then been recorded in the
 * outbox or fenced by its ingress, so the snapshot holds every order the old state held, and none decided later is
 * missing from the ledger. The SKUs are refused to buyers for that long and their own few calls. A SKU split over
 * buckets is lost when any of its buckets (or its layout) lives on the primary, and is rebuilt into the buckets its
 * definition holds, each buyer's orders in their home bucket.
 */
public final class RedisRecovery {

    private static final Logger LOG = LoggerFactory.getLogger(RedisRecovery.class);
    /** Past it another reconciler may take over; this one is then fenced off (every step checks its SKU's token). */
    private static final Duration LOCK_LEASE = Duration.ofMinutes(5);

    private final DSLContext dsl;
    private final Skus skus;
    private final SaleSnapshots snapshots;
    private final SaleStore saleStore;
    private final WaitingRoom waitingRoom;
    private final RedisEpoch epoch;
    private final Duration settle;
    private final ReconcilerMetrics metrics;
    /**
     * Gives-back of rebuild locks this reconciler holds but could not give back (Redis did not answer): left alone,
     * they would keep every rebuild of their primary or SKU off for the whole lease. Only the watch's one thread
     * touches it.
     */
    private final Deque<Runnable> owedUnlocks = new ArrayDeque<>();

    public RedisRecovery(
            DSLContext dsl,
            Skus skus,
            SaleSnapshots snapshots,
            SaleStore saleStore,
            WaitingRoom waitingRoom,
            RedisEpoch epoch,
            Duration settle,
            ReconcilerMetrics metrics) {
        this.dsl = dsl;
        this.skus = skus;
        this.snapshots = snapshots;
        this.saleStore = saleStore;
        this.waitingRoom = waitingRoom;
        this.epoch = epoch;
        this.settle = settle;
        this.metrics = metrics;
    }

    /** Rebuilds what each primary lost, where no other reconciler is at it. @return SKUs rebuilt */
    public int rebuildIfLost() {
        giveBackOwedLocks();
        List<RedisEpoch.Check> notIntact = epoch.checks().stream()
                .filter(check -> check.state() != RedisEpoch.State.INTACT)
                .toList();
        if (notIntact.isEmpty()) {
            return 0;
        }
        Map<Long, Integer> sales = skus.buckets(dsl);
        int rebuilt = 0;
        for (RedisEpoch.Check check : notIntact) {
            rebuilt += rebuild(check, sales);
        }
        return rebuilt;
    }

    private int rebuild(RedisEpoch.Check check, Map<Long, Integer> buckets) {
        Optional<RedisEpoch.PrimaryLease> lease = epoch.lockRebuild(check.primary(), LOCK_LEASE);
        if (lease.isEmpty()) {
            return 0;
        }
        try {
            // A SKU's keys as its definition lays them out and as Redis records their layout (the same, unless the
            // record was what the primary lost).
            List<Long> lost = buckets.keySet().stream()
                    .filter(sku -> check.primary().serves(saleStore.layout(sku))
                            || check.primary().serves(new SaleLayout(sku, buckets.get(sku))))
                    .filter(sku -> switch (check.state()) {
                        case UNTRUSTED -> true;
                        // Loaded since the marker went: from MySQL, by a definition; nothing to rebuild.
                        case UNMARKED -> saleStore.state(sku).stock() < 0;
                        case INTACT -> false;
                    })
                    .toList();
            if (!lost.isEmpty()) {
                LOG.warn(
                        "Redis primary {} does not hold the sale state it was given (server run {}, {}): rebuilding {}"
                                + " sale(s) from MySQL",
                        check.primary(),
                        check.runId(),
                        check.state(),
                        lost.size());
            }
            List<SaleStore.RebuildLease> closed = new ArrayList<>();
            boolean whole = true;
            int rebuilt = 0;
            try {
                for (long skuId : lost) {
                    Optional<SaleStore.RebuildLease> skuLease = saleStore.lockRebuild(skuId, LOCK_LEASE);
                    if (skuLease.isEmpty()) {
                        // A rebuilder of the SKU that lost the primary's lock is still within its SKU's lease: the
                        // primary is marked once a check finds every SKU rebuilt.
                        whole = false;
                        continue;
                    }
                    closed.add(skuLease.get());
                    saleStore.close(skuLease.get(), buckets.get(skuId));
                }
                if (!closed.isEmpty()) {
                    Thread.sleep(settle.toMillis());
                }
                for (SaleStore.RebuildLease skuLease : closed) {
                    Optional<SaleSnapshots.SaleSnapshot> snapshot = snapshots.read(dsl, skuLease.skuId());
                    if (snapshot.isPresent()) {
                        restoreRoom(snapshot.get().sale(), buckets.get(skuLease.skuId()));
                        saleStore.restore(restored(snapshot.get(), buckets.get(skuLease.skuId())), skuLease);
                        rebuilt++;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return rebuilt;
            } finally {
                closed.forEach(skuLease -> unlock(() -> saleStore.unlockRebuild(skuLease)));
            }
            if (whole) {
                epoch.rebuilt(check);
            }
            if (rebuilt > 0) {
                metrics.redisRebuilt();
                LOG.warn("Redis primary {}: sale state rebuilt: {} sale(s)", check.primary(), rebuilt);
            }
            return rebuilt;
        } finally {
            unlock(() -> epoch.unlockRebuild(lease.get()));
        }
    }

    /**
     * Gives a lock back, or, when Redis does not answer, owes it to the next check (the rebuild's own failure goes on
     * up). Once one give-back of this check went unanswered the rest are owed without asking: a rebuild holds a lock
     * per SKU, and waiting out Redis's timeout for each would hold the watch up for minutes.
     */
    private void unlock(Runnable unlock) {
        if (!owedUnlocks.isEmpty()) {
            owedUnlocks.add(unlock);
            return;
        }
        try {
            unlock.run();
        } catch (RuntimeException redisDidNotAnswer) {
            owedUnlocks.add(unlock);
            LOG.warn(
                    "a rebuild lock could not be given back; the next check gives it back: {}",
                    redisDidNotAnswer.toString());
        }
    }

    /**
     * @throws RuntimeException when Redis still does not answer: the locks stay owed, and nothing else is tried this
     * check
     */
    private void giveBackOwedLocks() {
        while (!owedUnlocks.isEmpty()) {
            owedUnlocks.peek().run();
            owedUnlocks.remove();
        }
    }

    /**
     * A room lost with its primary is opened again from MySQL before the sale sells again: its admission recomputes
     * from the start at its rate, up to the places its buyers hold; a room that survived is left as it stands.
     */
    private void restoreRoom(Skus.VersionedSale defined, int stockBuckets) {
        Skus.Sale sale = defined.sale();
        if (sale.admissionPerSecond() != null && waitingRoom.room(sale.skuId()).isEmpty()) {
            waitingRoom.define(
                    sale.skuId(),
                    defined.version(),
                    sale.admissionPerSecond(),
                    stockBuckets,
                    sale.startsAt().toEpochMilli(),
                    sale.endsAt().toEpochMilli());
        }
    }

    private static SaleStore.Restored restored(SaleSnapshots.SaleSnapshot snapshot, int stockBuckets) {
        Skus.Sale sale = snapshot.sale().sale();
        return new SaleStore.Restored(
                sale.skuId(),
                sale.stock(),
                sale.perUserLimit(),
                sale.startsAt().toEpochMilli(),
                sale.endsAt().toEpochMilli(),
                snapshot.sale().version(),
                snapshot.open().stream()
                        .map(order -> new SaleStore.Held(
                                new OrderFacts(order.orderId(), sale.skuId(), order.userId(), order.quantity()),
                                order.createdAt().toEpochMilli()))
                        .toList(),
                snapshot.purchases(),
                Stream.concat(
                                snapshot.adjustmentIds().stream(),
                                snapshot.returnedOrders().stream().map(SaleStore::returnId))
                        .toList(),
                sale.passRequired(),
                stockBuckets);
    }

    /** The job that watches Redis for lost state and rebuilds it from MySQL. */
    public static Job job(ReconcilerParts parts, RepairSettings settings) {
        RedisRecovery recovery = new RedisRecovery(parts.dsl(), parts.tables().skus(), parts.tables().snapshots(),
                parts.saleStore(), new WaitingRoom(parts.lua()), new RedisEpoch(parts.lua()), settings.rebuildSettle(),
                parts.metrics());
        return new Job("Redis state watch", settings.redisWatchInterval(), recovery::rebuildIfLost);
    }
}
