package io.seckill.ingress.identity;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * Mints a buyer token for development and load tests, with the secret the ingress verifies:
 * {@code bin/seckill mint-token alice}.
 */
@Command(name = "mint-token", mixinStandardHelpOptions = true,
        description = "Prints a signed buyer token for USER, valid for --ttl.")
public final class MintTokenCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "USER", description = "the buyer's user id")
    String userId;

    @Option(names = "--ttl", defaultValue = "PT24H", description = "ISO-8601 duration the token is valid (default ${DEFAULT-VALUE})")
    Duration ttl;

    // Never an option of its own: a secret on a command line is readable by every user of the host (ps, /proc).
    @Option(names = "--secret-file", paramLabel = "PATH", description = "a file holding the HMAC secret (default: $SECKILL_TOKEN_SECRET)")
    Path secretFile;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        String secret = secretFile != null ? Files.readString(secretFile).strip() : System.getenv("SECKILL_TOKEN_SECRET");
        if (secret == null || secret.isBlank()) {
            spec.commandLine().getErr().println("no secret: set SECKILL_TOKEN_SECRET or pass --secret-file");
            return 2;
        }
        spec.commandLine().getOut().println(new BuyerToken(secret, Clock.systemUTC(), Duration.ZERO).mint(userId, Instant.now().plus(ttl)));
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MintTokenCommand()).execute(args));
    }
}
