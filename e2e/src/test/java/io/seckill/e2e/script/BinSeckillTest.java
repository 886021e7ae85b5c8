package io.seckill.e2e.script;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/seckill} in a working copy that was not built: it says what is missing and starts no JVM. */
class BinSeckillTest {

    private static final Path SCRIPT = Path.of("").toAbsolutePath().getParent().resolve("bin/seckill");

    @TempDir
    Path checkout;

    @Test
    void aMissingJarExitsNonZeroWithItsMessageAndStartsNoJava() throws Exception {
        Path bin = Files.createDirectories(checkout.resolve("bin"));
        Files.copy(SCRIPT, bin.resolve("seckill"));
        // A java that leaves a mark, first on the PATH: the script must never reach it.
        Path fakeJdk = Files.createDirectories(checkout.resolve("fake-jdk"));
        Path marker = checkout.resolve("java-was-started");
        executable(fakeJdk.resolve("java"), "#!/bin/sh\ntouch '" + marker + "'\n");

        for (String command : new String[] {"all", "servers", "db-sink", "mint-token"}) {
            ProcessBuilder builder = new ProcessBuilder(bin.resolve("seckill").toString(), command).directory(checkout.toFile())
                    .redirectErrorStream(true);
            builder.environment().put("PATH", fakeJdk + ":" + System.getenv("PATH"));
            builder.environment().put("SECKILL_DATA_DIR", checkout.resolve("data").toString());
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();

            assertThat(process.exitValue()).as(command + ": " + output).isNotZero();
            assertThat(output).as(command).contains("is missing; build first");
            assertThat(marker).as(command + " started java").doesNotExist();
        }
    }

    private static void executable(Path file, String content) throws IOException {
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
