package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The operator page in a real browser (Debian's Chromium, headless, through its chromedriver): an admin signs in,
 * defines a sale on the page, buyers race for it through the API, and the page's figures follow until the sale is
 * sold and settled. Leaves target/operator-page.png (docs/images/operator-page.png is one such). A machine without
 * Chromium skips it and says what to install; the test command installs both (bin/seckill test).
 */
@ExtendWith(Pipeline.StaysAlive.class)
class OperatorPageIT {

    private static final int STOCK = 20;
    private static final int BUYERS = 60;
    private static final Duration PAGE_FOLLOWS = Duration.ofSeconds(60);

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void anAdminDefinesASaleOnThePageAndWatchesItSellOut() throws Exception {
        try (HeadlessChromium chromium = HeadlessChromium.start("operator page", 1500, 1300)) {
            WebDriver browser = chromium.browser;
            browser.get("http://127.0.0.1:" + pipeline.system.adminPort() + "/watch/");
            browser.findElement(By.id("token")).sendKeys(HttpApi.ADMIN_TOKEN);
            browser.findElement(By.id("sign-in-button")).click();
            await().atMost(Duration.ofSeconds(10))
                    .until(() ->
                            "live".equals(browser.findElement(By.id("status")).getAttribute("data-state")));

            long sku = Pipeline.newSkuId();
            WebElement form = browser.findElement(By.id("define-sale"));
            form.findElement(By.name("skuId")).sendKeys(Long.toString(sku));
            form.findElement(By.name("name")).sendKeys("Console phone");
            form.findElement(By.name("stock")).sendKeys(Integer.toString(STOCK));
            // These buyers come without passes: the sale opts out.
            form.findElement(By.name("passRequired")).click();
            form.findElement(By.cssSelector("button[type=submit]")).click();
            assertThat(browser.switchTo().alert().getText()).contains("Define SKU " + sku);
            browser.switchTo().alert().accept();
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> browser.findElement(By.id("action-result"))
                            .getText()
                            .startsWith("Done (201)"));
            await().atMost(PAGE_FOLLOWS)
                    .until(() -> figure(browser, sku, "redisStock").equals(Integer.toString(STOCK)));
            assertThat(pipeline.http.figureValues(sku)).containsEntry("mysqlStock", (long) STOCK);

            browser.findElement(By.cssSelector("#rebuild-redis button")).click();
            browser.switchTo().alert().dismiss();
            assertThat(browser.findElement(By.id("action-result")).getText()).isEqualTo("Not done.");

            assertThat(buyConcurrently(sku)).isEqualTo(STOCK);
            await().atMost(PAGE_FOLLOWS)
                    .untilAsserted(() -> assertThat(figures(browser, sku))
                            .containsAllEntriesOf(Map.of(
                                    "redisStock",
                                    "0",
                                    "pendingReservations",
                                    "0",
                                    "mysqlStock",
                                    "0",
                                    "confirmedQuantity",
                                    Integer.toString(STOCK),
                                    "acceptedOrders",
                                    Integer.toString(STOCK),
                                    "decidedOrders",
                                    Integer.toString(STOCK),
                                    "drift",
                                    "0",
                                    "deadLetteredOrders",
                                    "0")));
            assertThat(browser.findElements(By.cssSelector("[data-chart-sku='" + sku + "'] canvas"))).isNotEmpty();
            await().atMost(PAGE_FOLLOWS)
                    .untilAsserted(() -> assertThat(((JavascriptExecutor) browser)
                                    .executeScript("return document.querySelector('#answers').textContent;")
                                    .toString())
                            .as("the refusals at the door, beside the orders")
                            .contains("ACCEPTED", "SOLD_OUT"));
            assertThat(((JavascriptExecutor) browser)
                            .executeScript("return document.querySelector('#instances').textContent;")
                            .toString())
                    .contains("READY")
                    .doesNotContain("NOT_READY", "UNREACHABLE");

            ((JavascriptExecutor) browser).executeScript("window.scrollTo(0, 0);");
            Path screenshot = Path.of("target", "operator-page.png");
            chromium.screenshot(screenshot);
            assertThat(Files.size(screenshot)).isPositive();
        }
    }

    /** Buyers each asking for one unit at once; how many were accepted. */
    private int buyConcurrently(long sku) throws Exception {
        ExecutorService buyers = Executors.newFixedThreadPool(16);
        try {
            List<Future<Integer>> replies = Stream.iterate(0, buyer -> buyer + 1).limit(BUYERS)
                    .map(buyer -> buyers.submit(() -> pipeline.http.buy(sku, "page-" + sku + "-" + buyer, 1).status()))
                    .toList();
            int accepted = 0;
            for (Future<Integer> reply : replies) {
                accepted += reply.get() == 202 ? 1 : 0;
            }
            return accepted;
        } finally {
            buyers.shutdownNow();
        }
    }

    private static String figure(WebDriver browser, long sku, String field) {
        return figures(browser, sku).getOrDefault(field, "");
    }

    /** The SKU's row as the page shows it now, read in one script: the page redraws the table each second. */
    private static Map<String, String> figures(WebDriver browser, long sku) {
        Object row = ((JavascriptExecutor) browser).executeScript(
                "return Object.fromEntries([...document.querySelectorAll(\"tr[data-sku='\" + arguments[0] + \"'] td\")]"
                        + ".map(cell => [cell.dataset.field, cell.textContent]));", Long.toString(sku));
        Map<String, String> shown = new TreeMap<>();
        ((Map<?, ?>) row).forEach((field, text) -> shown.put(field.toString(), text.toString()));
        return shown;
    }
}
