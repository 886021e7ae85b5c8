package io.seckill.benchmark;

import io.seckill.buyeraccess.tokens.TokenMinter;
import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.Secrets;
import io.seckill.processdriver.IngressAdmin;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The running ingress a benchmark command loads: where its buyers' and admin listeners are, and how to sign for it. */
final class RunningIngress {

    @Option(
            names = "--url",
            defaultValue = "http://localhost:8080",
            description = "the ingress (default ${DEFAULT-VALUE})")
    URI url;

    @Option(
            names = "--admin-url",
            defaultValue = "http://127.0.0.1:8081",
            description = "the ingress's admin listener (default ${DEFAULT-VALUE})")
    URI adminUrl;

    @Option(
            names = "--warmup",
            defaultValue = "PT3S",
            description = "unmeasured time before each run (default ${DEFAULT-VALUE})")
    Duration warmup;

    String host() {
        return url.getHost();
    }

    int port() {
        return url.getPort() < 0 ? 80 : url.getPort();
    }

    /** The {@code Host} header of requests to it. */
    String hostHeader() {
        return host() + ":" + port();
    }

    /**
     * Signs with the run command's development secret unless the environment names another; never an option (a command
     * line is readable by all).
     */
    TokenMinter tokens() {
        return TokenMinter.development(
                Optional.ofNullable(System.getenv(TokenSettings.SECRET)).orElse(Secrets.DEVELOPMENT_TOKEN_SECRET));
    }

    /**
     * Its admin API, as an admin whose token outlasts any run, signed with the admins' development secret unless the
     * environment names another.
     */
    IngressAdmin admin() {
        TokenMinter admins = TokenMinter.developmentAdmin(Optional.ofNullable(System.getenv(TokenSettings.ADMIN_SECRET))
                .orElse(Secrets.DEVELOPMENT_ADMIN_TOKEN_SECRET));
        return new IngressAdmin(adminUrl, admins.admin("benchmark", TokenSettings.DEFAULT_ADMIN_MAX_LIFETIME));
    }

    /** A new load of {@code connections} against it, with its warm-up. */
    ClosedLoopLoad load(int connections, Duration measured) {
        return new ClosedLoopLoad(host(), port(), connections, warmup, measured);
    }
}
