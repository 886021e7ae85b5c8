package io.seckill.processdriver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

/**
 * What a benchmark asks of an ingress before loading it: a sale of its own, open now, on a fresh SKU.
 * @param admin      the ingress's admin listener
 * @param adminToken a token with the admin role
 */
public record IngressAdmin(URI admin, String adminToken) {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /**
     * Defines an open sale of {@code stock} units, one per buyer, bought without passes; fails unless it is new (201).
     */
    public void defineSale(long skuId, int stock) throws IOException, InterruptedException {
        defineSale(skuId, stock, 1, false);
    }

    /**
     * Defines an open sale of {@code stock} units, at most {@code perUserLimit} per buyer, bought with a sale pass if
     * {@code passRequired}; fails unless it is new (201).
     */
    public void defineSale(long skuId, int stock, int perUserLimit, boolean passRequired)
            throws IOException, InterruptedException {
        defineSale(skuId, stock, perUserLimit, passRequired, null);
    }

    /**
     * As {@link #defineSale(long, int, int, boolean)}, its stock split over {@code stockBuckets} buckets (null: the
     * ingress chooses).
     */
    public void defineSale(long skuId, int stock, int perUserLimit, boolean passRequired, Integer stockBuckets)
            throws IOException, InterruptedException {
        Instant now = Instant.now();
        String body =
                "{\"name\":\"benchmark\",\"stock\":" + stock + ",\"perUserLimit\":" + perUserLimit + ",\"startsAt\":\""
                        + now.minusSeconds(60) + "\",\"endsAt\":\"" + now.plus(Duration.ofDays(1))
                        + "\",\"passRequired\":" + passRequired
                        + (stockBuckets == null ? "" : ",\"stockBuckets\":" + stockBuckets) + "}";
        int status = status(HttpRequest.newBuilder(admin.resolve("/admin/v1/skus/" + skuId))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        if (status != 201) {
            throw new IllegalStateException("defining benchmark SKU " + skuId + " answered " + status);
        }
    }

    /**
     * Defines a sale of {@code stock} units, one per buyer, with passes and a waiting room admitting {@code
     * admissionPerSecond} buyers a second, selling from {@code startsAt} for a day; fails unless it is new (201).
     */
    public void defineSaleWithRoom(long skuId, int stock, Instant startsAt, int admissionPerSecond)
            throws IOException, InterruptedException {
        String body = "{\"name\":\"benchmark\",\"stock\":" + stock + ",\"perUserLimit\":1,\"startsAt\":\"" + startsAt
                + "\",\"endsAt\":\"" + startsAt.plus(Duration.ofDays(1)) + "\",\"passRequired\":true,"
                + "\"admissionPerSecond\":" + admissionPerSecond + "}";
        int status = status(HttpRequest.newBuilder(admin.resolve("/admin/v1/skus/" + skuId))
                .header("Authorization", "Bearer " + adminToken)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)));
        if (status != 201) {
            throw new IllegalStateException("defining benchmark SKU " + skuId + " answered " + status);
        }
    }

    public static int status(HttpRequest.Builder request) throws IOException, InterruptedException {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
