package io.seckill.baselines;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The no-op design's buy route answered {@value #REQUESTS} times (or {@value #REQUESTS_VARIABLE}'s number) over
 * loopback before it says it listens, as seckill's ingress warms its buy path before it serves
 * (SECKILL_INGRESS_WARMUP_REQUESTS, the same number by default): the limit the designs are measured against is the warm
 * stack's, in the cold rounds too. The whole sale's cold rounds on equal terms set it to 0 and warm every design alike
 * from outside.
 */
final class NoOpWarmUp {

    static final int REQUESTS = 20_000;
    static final String REQUESTS_VARIABLE = "BASELINE_WARMUP_REQUESTS";
    private static final int CLIENTS = 8;

    private NoOpWarmUp() {
    }

    static void run(int port, int requests) throws InterruptedException, ExecutionException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest buy = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/skus/1/orders"))
                .header("Content-Type", "application/json").header("X-User-Id", "warm-up")
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}")).build();
        ExecutorService threads = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<Void>> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(threads.submit(() -> {
                    for (int n = 0; n < requests / CLIENTS; n++) {
                        send(client, buy);
                    }
                    return null;
                }));
            }
            for (Future<Void> done : clients) {
                done.get();
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static void send(HttpClient client, HttpRequest buy) throws IOException, InterruptedException {
        int status = client.send(buy, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status != 409) {
            throw new IllegalStateException("the no-op design answered its warm-up " + status + ", not 409");
        }
    }
}
