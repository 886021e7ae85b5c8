package io.seckill.ingress.identity;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
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

    @Option(names = "--secret", defaultValue = "${env:SECKILL_TOKEN_SECRET}",
            description = "HMAC secret, at least 32 bytes (default: $SECKILL_TOKEN_SECRET)")
    String secret;

    @Override
    public Integer call() {
        if (secret == null || secret.isBlank()) {
            System.err.println("no secret: set SECKILL_TOKEN_SECRET or pass --secret");
            return 2;
        }
        System.out.println(new BuyerToken(secret, Clock.systemUTC(), Duration.ZERO).mint(userId, Instant.now().plus(ttl)));
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MintTokenCommand()).execute(args));
    }
}
