package io.seckill.buyeraccess.tokens;

import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Mints a token signed with the shared secret the ingress verifies, for development and load tests:
 * {@code bin/seckill mint-token alice} with the buyers' settings ({@code SECKILL_TOKEN_*}),
 * {@code bin/seckill mint-token --admin ops} with the admins' ({@code SECKILL_ADMIN_TOKEN_*}): issuer, audience,
 * maximum lifetime and secret, read from the environment as the ingress reads them.
 */
@Command(name = "mint-token", mixinStandardHelpOptions = true,
        description = "Prints a signed token (JWT, HS256) for USER, valid for --ttl.")
public final class MintTokenCommand implements Callable<Integer> {

    @Parameters(
            index = "0",
            paramLabel = "USER",
            description = "the token's subject: a buyer's user id, or the admin's name")
    String userId;

    @Option(
            names = "--ttl",
            description = "ISO-8601 duration the token is valid (default: the kind's longest, $"
                    + TokenSettings.MAX_LIFETIME + " or $" + TokenSettings.ADMIN_MAX_LIFETIME + ")")
    Duration ttl;

    @Option(names = "--admin", description = "an admin's token: signed with the admins' secret, with the admin role")
    boolean admin;

    // Never an option of its own: a secret on a command line is readable by every user of the host (ps, /proc).
    @Option(
            names = "--secret-file",
            paramLabel = "PATH",
            description = "a file holding the HS256 secret (default: $" + TokenSettings.SECRET + ", or $"
                    + TokenSettings.ADMIN_SECRET + " with --admin)")
    Path secretFile;

    @Spec
    CommandSpec spec;

    private final Map<String, String> environment;

    public MintTokenCommand() {
        this(System.getenv());
    }

    MintTokenCommand(Map<String, String> environment) {
        this.environment = environment;
    }

    @Override
    public Integer call() throws IOException {
        Map<String, String> settings = new HashMap<>(environment);
        String secretSetting = admin ? TokenSettings.ADMIN_SECRET : TokenSettings.SECRET;
        if (secretFile != null) {
            settings.put(secretSetting, Files.readString(secretFile).strip());
        }
        if (settings.getOrDefault(secretSetting, "").isBlank()) {
            spec.commandLine().getErr().println("no secret: set " + secretSetting + " or pass --secret-file");
            return 2;
        }
        try {
            Env env = new Env(settings);
            DeploymentMode mode = DeploymentMode.of(env);
            TokenSettings tokens = admin ? TokenSettings.adminFrom(env, mode) : TokenSettings.from(env, mode);
            TokenMinter minter = new TokenMinter(tokens, Clock.systemUTC());
            Duration lifetime = ttl == null ? tokens.maxLifetime() : ttl;
            spec.commandLine()
                    .getOut()
                    .println(admin ? minter.admin(userId, lifetime) : minter.buyer(userId, lifetime));
            return 0;
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return 2;
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new MintTokenCommand()).execute(args));
    }
}
