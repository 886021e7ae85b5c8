package io.seckill.ingress.pass;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.buyeraccess.passes.Challenge;
import io.seckill.buyeraccess.passes.ChallengePort;
import io.seckill.buyeraccess.passes.PassRequest;
import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.rooms.Admission;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.SpentChallenges;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.time.Instant;

/**
 * The sale-pass endpoints: a buyer asks for a challenge (from {@link PassSettings#window()} before the sale opens until
 * it ends), answers it, and gets a pass good for that buyer and sale until {@link PassSettings#lifetime()} after the
 * sale opens (or after it was issued, if later). Both are rate-limited per buyer and address, and read the sale's
 * window from Redis, never MySQL. A sale with a waiting room gives its passes only to the buyers it admitted
 * ({@link Admission}); the challenge is posed to everyone, so a buyer works on it while waiting.
 */
public final class PassDesk implements Feature {

    /** The desk for {@code settings}' challenges and passes. */
    public static PassDesk of(IngressParts parts, PassSettings settings) {
        return new PassDesk(
                parts.identity(),
                parts.rateLimiter(),
                parts.saleStore(),
                parts.knownSkus(),
                settings.challenges(new SpentChallenges(parts.lua())),
                parts.passes(),
                new Admission(parts.rooms(), parts.queueTickets()),
                settings,
                parts.clock());
    }

    @Override
    public void buyersRoutes(JavalinConfig buyers) {
        buyers.routes.post("/api/v1/skus/{skuId}/pass-challenges", this::challenge);
        buyers.routes.post("/api/v1/skus/{skuId}/passes", this::pass);
    }


    private final BuyerIdentity identity;
    private final RateLimiter rateLimiter;
    private final SaleStore saleStore;
    private final KnownSkus knownSkus;
    private final ChallengePort challenges;
    private final SalePasses passes;
    private final Admission admission;
    private final PassSettings settings;
    private final Clock clock;

    public PassDesk(
            BuyerIdentity identity,
            RateLimiter rateLimiter,
            SaleStore saleStore,
            KnownSkus knownSkus,
            ChallengePort challenges,
            SalePasses passes,
            Admission admission,
            PassSettings settings,
            Clock clock) {
        this.identity = identity;
        this.rateLimiter = rateLimiter;
        this.saleStore = saleStore;
        this.knownSkus = knownSkus;
        this.challenges = challenges;
        this.passes = passes;
        this.admission = admission;
        this.settings = settings;
        this.clock = clock;
    }

    /** Where a buyer asks for a challenge for SKU {@code skuId}. */
    public static String challengePath(long skuId) {
        return "/api/v1/skus/" + skuId + "/pass-challenges";
    }

    /** {@code POST /api/v1/skus/{skuId}/pass-challenges}. */
    public void challenge(Context ctx) {
        String buyer = identity.userId(ctx);
        long skuId = PathParams.skuId(ctx);
        rateLimiter.admit(RateLimitCounters.Scope.PASS, buyer, ctx);
        Instant now = clock.instant();
        openWindow(skuId, now);
        Json.respond(ctx, 201, new Posed(challenges.pose(buyer, skuId, now), "/api/v1/skus/" + skuId + "/passes"));
    }

    /** The answer to a challenge request: the challenge's own fields, and where its answer earns a pass. */
    record Posed(@JsonUnwrapped Challenge challenge, String passUrl) {
    }

    /** The answer to a pass request: the pass, the header that carries it, and until when it is good. */
    record Issued(String pass, String header, String expiresAt) {
    }

    /** {@code POST /api/v1/skus/{skuId}/passes}. */
    public void pass(Context ctx) {
        String buyer = identity.userId(ctx);
        long skuId = PathParams.skuId(ctx);
        PassRequest answer = Json.body(ctx, PassRequest.class);
        rateLimiter.admit(RateLimitCounters.Scope.PASS, buyer, ctx);
        Instant now = clock.instant();
        SaleStore.SaleWindow sale = openWindow(skuId, now);
        admission.check(ctx.header(QueueTickets.HEADER), buyer, skuId, now);
        challenges.check(buyer, skuId, answer, rateLimiter.clientAddress(ctx), now);
        Instant opens = Instant.ofEpochMilli(sale.startsAtMs());
        Instant expiresAt = (now.isAfter(opens) ? now : opens).plus(settings.lifetime());
        Json.respond(
                ctx, 201, new Issued(passes.issue(buyer, skuId, expiresAt), SalePasses.HEADER, expiresAt.toString()));
    }

    /** The sale, if passes for it are given out now; else the problem saying when they are. */
    private SaleStore.SaleWindow openWindow(long skuId, Instant now) {
        SaleStore.SaleWindow sale = saleStore.window(skuId).orElseThrow(() -> knownSkus.notLoaded(skuId));
        Instant passesFrom = Instant.ofEpochMilli(sale.startsAtMs()).minus(settings.window());
        if (now.isBefore(passesFrom)) {
            throw new Problem(
                            ErrorCode.PASS_WINDOW_NOT_OPEN,
                            "passes for SKU " + skuId + " are given out from " + passesFrom)
                    .with("passesFrom", passesFrom.toString());
        }
        if (now.toEpochMilli() >= sale.endsAtMs()) {
            throw new Problem(ErrorCode.SALE_ENDED, "the sale of SKU " + skuId + " has ended")
                    .with("endsAt", Instant.ofEpochMilli(sale.endsAtMs()).toString());
        }
        return sale;
    }
}
