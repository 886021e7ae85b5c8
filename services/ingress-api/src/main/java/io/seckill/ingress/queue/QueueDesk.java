package io.seckill.ingress.queue;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.buyeraccess.passes.QueuePlace;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.rooms.Admission;
import io.seckill.ingress.rooms.QueueStanding;
import io.seckill.ingress.rooms.RoomFigures;
import io.seckill.ingress.rooms.RoomNow;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.time.Instant;

/**
 * A sale's waiting room, as its buyers see it: joining (from {@link QueueSettings#opens()} before the start, one Redis
 * call, the same place when joining again) earns a signed ticket; asking where one stands is answered from the ticket
 * and the room as this ingress last read it. Both count the buyer and the address first ({@code QUEUE}), then answer a
 * SKU no sale is defined for from the ingress's memory ({@link KnownSkus}): neither reads a room for it.
 */
public final class QueueDesk implements Feature {

    private final BuyerIdentity identity;
    private final RateLimiter rateLimiter;
    private final WaitingRoom waitingRoom;
    private final RoomFigures rooms;
    private final QueueTickets tickets;
    private final KnownSkus knownSkus;
    private final QueueSettings settings;
    private final Clock clock;

    QueueDesk(
            BuyerIdentity identity,
            RateLimiter rateLimiter,
            WaitingRoom waitingRoom,
            RoomFigures rooms,
            QueueTickets tickets,
            KnownSkus knownSkus,
            QueueSettings settings,
            Clock clock) {
        this.identity = identity;
        this.rateLimiter = rateLimiter;
        this.waitingRoom = waitingRoom;
        this.rooms = rooms;
        this.tickets = tickets;
        this.knownSkus = knownSkus;
        this.settings = settings;
        this.clock = clock;
    }

    public static QueueDesk of(IngressParts parts, QueueSettings settings) {
        return new QueueDesk(
                parts.identity(),
                parts.rateLimiter(),
                parts.waitingRoom(),
                parts.rooms(),
                parts.queueTickets(),
                parts.knownSkus(),
                settings,
                parts.clock());
    }

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.post("/api/v1/skus/{skuId}/queue", this::join);
        buyers.routes.get("/api/v1/skus/{skuId}/queue/me", this::standing);
    }

    /** The answer to a join: the ticket, the header that shows it, and where its buyer stands. */
    record Joined(String ticket, String header, @JsonUnwrapped Standing standing) {
    }

    /** Where a buyer stands, and where to ask next: again where they stand, or for the pass once admitted. */
    record Standing(long skuId, @JsonUnwrapped QueueStanding standing, String standingUrl, String passChallengeUrl) {
    }

    /** {@code POST /api/v1/skus/{skuId}/queue}. */
    public void join(Context ctx) {
        String buyer = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.QUEUE, buyer, ctx);
        long skuId = PathParams.skuId(ctx);
        Instant now = clock.instant();
        RoomNow room = room(skuId);
        WaitingRoom.Room defined = room.room();
        Instant opensAt = Instant.ofEpochMilli(defined.startsAtMs()).minus(settings.opens());
        if (now.isBefore(opensAt)) {
            throw new Problem(ErrorCode.QUEUE_NOT_OPEN, "the queue of SKU " + skuId + " opens at " + opensAt)
                    .with("opensAt", opensAt.toString());
        }
        if (now.toEpochMilli() >= defined.endsAtMs()) {
            throw new Problem(ErrorCode.SALE_ENDED, "the sale of SKU " + skuId + " has ended")
                    .with("endsAt", Instant.ofEpochMilli(defined.endsAtMs()).toString());
        }
        WaitingRoom.Joined joined =
                waitingRoom.join(defined, skuId, buyer, now.toEpochMilli() < defined.startsAtMs());
        QueuePlace place = joined.inPreQueue()
                ? tickets.draw(buyer, skuId)
                : new QueuePlace.Arrived(joined.bucket(), defined.buckets(), joined.place());
        String ticket = tickets.issue(buyer, skuId, defined.line(), place, Instant.ofEpochMilli(defined.endsAtMs()));
        QueueStanding standing =
                QueueStanding.of(new QueueTickets.Ticket(defined.line(), place), room, now.toEpochMilli());
        retryAfter(ctx, standing);
        Json.respond(
                ctx,
                joined.joinedNow() ? 201 : 200,
                new Joined(ticket, QueueTickets.HEADER, standing(skuId, standing)));
    }

    /** {@code GET /api/v1/skus/{skuId}/queue/me}: answered from the ticket and this ingress's last reading. */
    public void standing(Context ctx) {
        String buyer = identity.userId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.QUEUE, buyer, ctx);
        long skuId = PathParams.skuId(ctx);
        Instant now = clock.instant();
        QueueTickets.Ticket ticket = tickets.ticket(ctx.header(QueueTickets.HEADER), buyer, skuId, now);
        QueueStanding standing = QueueStanding.of(ticket, room(skuId), now.toEpochMilli());
        retryAfter(ctx, standing);
        Json.respond(ctx, 200, standing(skuId, standing));
    }

    private RoomNow room(long skuId) {
        if (!knownSkus.defined(skuId)) {
            throw new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId);
        }
        return rooms.of(skuId).orElseThrow(() -> new Problem(
                        ErrorCode.NO_WAITING_ROOM, "SKU " + skuId + " has no waiting room: ask for a pass")
                .with("passChallengeUrl", "/api/v1/skus/" + skuId + "/pass-challenges"));
    }

    private static Standing standing(long skuId, QueueStanding standing) {
        return new Standing(
                skuId,
                standing,
                Admission.queuePath(skuId) + "/me",
                standing.status() == QueueStanding.Status.ADMITTED
                        ? "/api/v1/skus/" + skuId + "/pass-challenges"
                        : null);
    }

    private static void retryAfter(Context ctx, QueueStanding standing) {
        if (standing.status() == QueueStanding.Status.WAITING) {
            ctx.header("Retry-After", Long.toString(standing.retryAfterSeconds()));
        }
    }
}
