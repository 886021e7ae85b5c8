package io.seckill.buyeraccess.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * mint-token takes its secret from the environment or a file (a command line is readable by every user of the host),
 * and its limits from the ingress's settings.
 */
class MintTokenCommandTest {

    private static final String SECRET = "a-token-secret-of-at-least-thirty-two-bytes";
    private static final Map<String, String> DEVELOPMENT = Map.of("SECKILL_MODE", "development");
    private static final String ADMIN_SECRET = "an-admin-token-secret-of-at-least-32-bytes";
    private final StringWriter output = new StringWriter();
    private final StringWriter errors = new StringWriter();

    private CommandLine command(Map<String, String> environment) {
        return new CommandLine(new MintTokenCommand(environment))
                .setOut(new PrintWriter(output))
                .setErr(new PrintWriter(errors));
    }

    @Test
    void aSecretOnTheCommandLineIsRefused() {
        assertThat(command(DEVELOPMENT).execute("--secret", SECRET, "alice")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(errors.toString()).contains("Unknown options: '--secret'");
    }

    @Test
    void aSecretFromAFileSignsATokenTheIngressAccepts(@TempDir Path directory) throws Exception {
        Path secretFile = Files.writeString(directory.resolve("token-secret"), SECRET + "\n");

        assertThat(command(DEVELOPMENT).execute("--secret-file", secretFile.toString(), "alice")).isZero();

        Caller caller = new AccessTokens(TokenSettings.development(SECRET), Clock.systemUTC())
                .verify(output.toString().strip());
        assertThat(caller).isEqualTo(new Caller("alice", false));
    }

    @Test
    void anAdminTokenIsSignedWithTheAdminsSecretAndCarriesTheRole() throws Exception {
        assertThat(command(Map.of(
                                "SECKILL_MODE",
                                "development",
                                "SECKILL_TOKEN_SECRET",
                                SECRET,
                                "SECKILL_ADMIN_TOKEN_SECRET",
                                ADMIN_SECRET))
                        .execute("--admin", "ops"))
                .isZero();

        String token = output.toString().strip();
        assertThat(new AccessTokens(TokenSettings.developmentAdmin(ADMIN_SECRET), Clock.systemUTC()).verify(token))
                .isEqualTo(new Caller("ops", true));
        assertThatThrownBy(() -> new AccessTokens(TokenSettings.development(SECRET), Clock.systemUTC()).verify(token))
                .as("not a buyers' token").isInstanceOf(AccessTokens.TokenException.class);
    }

    @Test
    void anAdminTokenNeedsTheAdminsSecretAndLivesAnHourAtMost() {
        assertThat(command(Map.of("SECKILL_MODE", "development", "SECKILL_TOKEN_SECRET", SECRET))
                        .execute("--admin", "ops"))
                .isEqualTo(2);
        assertThat(errors.toString()).contains("SECKILL_ADMIN_TOKEN_SECRET");
        assertThat(command(Map.of("SECKILL_MODE", "development", "SECKILL_ADMIN_TOKEN_SECRET", ADMIN_SECRET))
                        .execute("--admin", "--ttl", "PT2H", "ops"))
                .isEqualTo(2);
        assertThat(errors.toString()).contains("SECKILL_ADMIN_TOKEN_MAX_LIFETIME_MS");
    }

    @Test
    void aLifetimeAboveTheMaximumIsRefused() {
        Map<String, String> environment = Map.of(
                "SECKILL_MODE",
                "development",
                "SECKILL_TOKEN_SECRET",
                SECRET,
                "SECKILL_TOKEN_MAX_LIFETIME_MS",
                "3600000");

        assertThat(command(environment).execute("--ttl", "PT2H", "alice")).isEqualTo(2);
        assertThat(errors.toString()).contains("SECKILL_TOKEN_MAX_LIFETIME_MS");
        assertThat(output.toString()).isEmpty();
    }
}
