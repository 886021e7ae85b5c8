package io.seckill.localinfra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * servers.env holds the development credentials: only its owner reads it, even when an older one was world-readable.
 */
class EnvFileTest {

    @Test
    void onlyItsOwnerCanReadItAndItReplacesAnOlderOne(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("servers.env");
        Files.writeString(file, "OLD=1\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        EnvFile.write(file, Map.of("SECKILL_TOKEN_SECRET", "a-development-secret"));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file))
                .contains("SECKILL_TOKEN_SECRET=a-development-secret")
                .doesNotContain("OLD=1");
        try (var left = Files.list(directory)) {
            assertThat(left).containsExactly(file);
        }
    }
}
