package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.http.Reply;
import java.net.http.HttpRequest;
import org.junit.jupiter.api.Test;

/**
 * A sale MySQL defines but Redis has lost is being restored, not unknown: buyers are told to come
 * back (503 SALE_RESTORING, Retry-After), never that the SKU does not exist. An admin can ask for the
 * rebuild.
 */
class RedisRestoringIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aSaleRedisLostIsAnsweredAsBeingRestoredAndAnUnknownSkuAsUnknown() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        fixture.redis.del("seckill:{sku:" + sku + "}:sale", "seckill:{sku:" + sku + "}:stock");

        HttpApi.Reply restoring = fixture.http.buy(sku, "patient", 1);
        HttpApi.Reply unknown = fixture.http.buy(IngressFixture.newSkuId(), "patient", 1);

        assertThat(restoring.status()).isEqualTo(503);
        assertThat(restoring.code()).isEqualTo("SALE_RESTORING");
        assertThat(restoring.retryAfter()).isEqualTo("1");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("SKU_NOT_FOUND");
    }

    @Test
    void anAdminAsksForTheRebuild() {

        HttpApi.Reply asked = fixture.http.send(HttpRequest.newBuilder(fixture.http.adminUri("/admin/v1/redis/rebuild"))
                .header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN).POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(asked.status()).isEqualTo(202);
        assertThat(asked.json().path("status").asText()).isEqualTo("REBUILD_REQUESTED");
        assertThat(fixture.redis.exists("seckill:epoch:rebuild-requested")).isTrue();
        fixture.redis.del("seckill:epoch:rebuild-requested");
    }
}
