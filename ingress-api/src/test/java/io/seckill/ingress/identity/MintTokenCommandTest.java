package io.seckill.ingress.identity;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** mint-token takes its secret from the environment or a file: a command line is readable by every user of the host. */
class MintTokenCommandTest {

    private static final String SECRET = "a-token-secret-of-at-least-thirty-two-bytes";

    @Test
    void aSecretOnTheCommandLineIsRefused() {
        StringWriter errors = new StringWriter();
        CommandLine command = new CommandLine(new MintTokenCommand()).setErr(new PrintWriter(errors));

        assertThat(command.execute("--secret", SECRET, "alice")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(errors.toString()).contains("Unknown options: '--secret'");
    }

    @Test
    void aSecretFromAFileSignsATokenTheIngressAccepts(@TempDir Path directory) throws Exception {
        Path secretFile = Files.writeString(directory.resolve("token-secret"), SECRET + "\n");
        StringWriter output = new StringWriter();
        CommandLine command = new CommandLine(new MintTokenCommand()).setOut(new PrintWriter(output));

        assertThat(command.execute("--secret-file", secretFile.toString(), "alice")).isZero();

        assertThat(new BuyerToken(SECRET, Clock.systemUTC(), Duration.ZERO).verify(output.toString().strip())).isEqualTo("alice");
    }
}
