package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every path of the buyer's page, the page under {@code /sale/{skuId}} and each of its files under {@code /sale-page/}
 * (the page's own copy there too), tells the browser the same: only its own scripts run, no page frames it, nothing
 * sniffs or caches it, no referrer leaves.
 */
class SalePageHeadersIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void everyPathOfTheBuyersPageForbidsFramingSniffingCachingAndForeignScripts() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        for (String path : List.of("/sale/42", "/sale-page/index.html", "/sale-page/sale.js", "/sale-page/sale.css")) {
            HttpResponse<Void> answer = client.send(
                    HttpRequest.newBuilder(fixture.http.uri(path)).GET().build(),
                    HttpResponse.BodyHandlers.discarding());
            HttpHeaders headers = answer.headers();
            assertThat(answer.statusCode()).as(path).isEqualTo(200);
            PageHeadersAssert.assertPageHeaders(headers, path);
            assertThat(headers.firstValue("Cache-Control")).as(path).contains("no-store");
            assertThat(headers.firstValue("Referrer-Policy")).as(path).contains("no-referrer");
        }
    }
}
