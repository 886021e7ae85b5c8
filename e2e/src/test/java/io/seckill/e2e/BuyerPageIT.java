package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The buyer's page in a real browser (Debian's Chromium, headless): a buyer signs in with their token on
 * {@code /sale/{skuId}} of a sale with a waiting room, waits in its queue, is admitted, solves the pass's proof of
 * work, buys, and sees the order confirmed by the whole pipeline. Leaves target/buyer-page.png
 * (docs/images/buyer-page.png is one such).
 */
@ExtendWith(Pipeline.StaysAlive.class)
class BuyerPageIT {

    private static final Duration BOUGHT_WITHIN = Duration.ofSeconds(90);

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void aBuyerWaitsInTheQueueIsAdmittedBuysAndSeesTheOrderConfirmed() throws Exception {
        long sku = Pipeline.newSkuId();
        Instant startsAt = Instant.now().plusSeconds(15);
        HttpApi.Reply defined = pipeline.http.defineSaleWithRoom(sku, 5, startsAt, startsAt.plusSeconds(3600), 50);
        assertThat(defined.status()).as(defined.body()).isEqualTo(201);

        try (HeadlessChromium chromium = HeadlessChromium.start("buyer's page", 900, 700)) {
            WebDriver browser = chromium.browser;
            browser.get("http://127.0.0.1:" + pipeline.system.httpPort() + "/sale/" + sku);
            browser.findElement(By.id("token")).sendKeys(HttpApi.tokenFor("page-buyer-" + sku));
            browser.findElement(By.id("sign-in-button")).click();
            // Joined before the start: in the pre-queue, waiting, told where it stands.
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> browser.findElement(By.id("queue-status")).getText(), "WAITING"::equals);
            assertThat(browser.findElement(By.id("place")).getText()).isEqualTo("1");

            await().atMost(BOUGHT_WITHIN)
                    .until(() -> browser.findElement(By.id("order-status")).getText(), "CONFIRMED"::equals);
            assertThat(browser.findElement(By.id("queue-status")).getText()).isEqualTo("ADMITTED");
            assertThat(browser.findElement(By.id("work")).getText()).isEqualTo("solved");
            String orderId = browser.findElement(By.id("order-id")).getText();
            assertThat(pipeline.http.order("page-buyer-" + sku, orderId).json().path("status").asText())
                    .isEqualTo("CONFIRMED");

            Path screenshot = Path.of("target", "buyer-page.png");
            chromium.screenshot(screenshot);
            assertThat(Files.size(screenshot)).isPositive();
        }
    }
}
