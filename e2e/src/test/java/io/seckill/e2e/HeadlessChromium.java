package io.seckill.e2e;


import io.seckill.runtime.TestTools;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium, headless, driven through its chromedriver, for the pages' browser tests. A machine without
 * either skips the test and says what to install; the test command installs both (bin/seckill test).
 */
final class HeadlessChromium implements AutoCloseable {

    private final ChromeDriverService service;
    final ChromeDriver browser;

    private HeadlessChromium(ChromeDriverService service, ChromeDriver browser) {
        this.service = service;
        this.browser = browser;
    }

    /** A browser of a window {@code width} by {@code height}; skips the test where Chromium is missing. */
    static HeadlessChromium start(String page, int width, int height) {
        Optional<Path> chromium = executable("chromium");
        Optional<Path> driverBinary = executable("chromedriver");
        TestTools.assumePresent(
                chromium.isPresent() && driverBinary.isPresent(),
                "Chromium or chromedriver is not installed (Debian: apt-get install chromium chromium-driver): the "
                        + page + "'s browser test is not run");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(driverBinary.get().toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium.get().toFile());
        options.addArguments(
                "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=" + width + "," + height);
        return new HeadlessChromium(service, new ChromeDriver(service, options));
    }

    /** Writes what the window shows to {@code file}, as a PNG. */
    void screenshot(Path file) throws IOException {
        Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
    }

    @Override
    public void close() {
        browser.quit();
        service.stop();
    }

    private static Optional<Path> executable(String name) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator, -1))
                .map(directory -> Path.of(directory, name))
                .filter(Files::isExecutable)
                .findFirst();
    }
}
