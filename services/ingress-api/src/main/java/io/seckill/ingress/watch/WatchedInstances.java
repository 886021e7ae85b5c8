package io.seckill.ingress.watch;

import io.seckill.config.Env;
import io.seckill.runtime.management.Readiness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The service instances the operator page shows, each by its management port's {@code /ready}: this ingress from
 * its own checks, the others named in {@value #SETTING} as {@code name=http://host:port} pairs separated by commas.
 * All are asked at once and each answers within {@link #TIMEOUT} or counts as unreachable, so one hung instance
 * never holds the page.
 */
public final class WatchedInstances {

    public static final String SETTING = "SECKILL_WATCH_INSTANCES";
    static final Duration TIMEOUT = Duration.ofMillis(800);
    private static final String SELF = "ingress-api (this instance)";

    /** An instance the page asks; {@code management}: its management port's base address. */
    public record Instance(String name, URI management) {
    }

    /** How an instance answered: READY, NOT_READY, or UNREACHABLE (no answer in time). */
    public enum State { READY, NOT_READY, UNREACHABLE }

    /** What the page shows of one instance. */
    public record Seen(String name, State state, String detail) {
    }

    private final List<Instance> instances;
    private final Readiness own;
    /** Made when the page first asks: a client's selector thread is not left behind by a start that fails. */
    private HttpClient http;

    public WatchedInstances(List<Instance> instances, Readiness own) {
        this.instances = List.copyOf(instances);
        this.own = own;
    }

    /** The instances named by {@value #SETTING}; none when it is unset. Refuses a malformed list, naming the entry. */
    public static List<Instance> from(Env env) {
        String value = env.string(SETTING, "").strip();
        List<Instance> named = new ArrayList<>();
        if (value.isEmpty()) {
            return named;
        }
        for (String entry : value.split(",", -1)) {
            String[] parts = entry.strip().split("=", 2);
            if (parts.length != 2 || parts[0].isBlank() || !parts[1].strip().matches("https?://[^\\s/]+/?")) {
                throw new IllegalArgumentException(SETTING + ": '" + entry.strip() + "' is not name=http://host:port");
            }
            named.add(new Instance(parts[0].strip(), URI.create(parts[1].strip().replaceAll("/$", ""))));
        }
        return named;
    }

    /** This instance first, then the named ones in their order. */
    public List<Seen> look() {
        List<CompletableFuture<Seen>> asked = instances.stream().map(this::ask).toList();
        List<Seen> seen = new ArrayList<>();
        Readiness.Report report = own.evaluate();
        seen.add(new Seen(
                SELF, report.ready() ? State.READY : State.NOT_READY, report.ready() ? "ready" : failing(report)));
        asked.forEach(answer -> seen.add(answer.join()));
        return seen;
    }

    private synchronized HttpClient http() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        }
        return http;
    }

    private CompletableFuture<Seen> ask(Instance instance) {
        HttpRequest request = HttpRequest.newBuilder(instance.management().resolve("/ready"))
                .timeout(TIMEOUT)
                .GET()
                .build();
        return http().sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .thenApply(response -> switch (response.statusCode()) {
                    case 200 -> new Seen(instance.name(), State.READY, "ready");
                    case 503 ->
                        new Seen(
                                instance.name(),
                                State.NOT_READY,
                                "a readiness check fails: see " + instance.management() + "/ready");
                    default -> new Seen(instance.name(), State.UNREACHABLE, "/ready answered " + response.statusCode());
                })
                .exceptionally(failure ->
                        new Seen(instance.name(), State.UNREACHABLE, "no answer from " + instance.management()));
    }

    private static String failing(Readiness.Report report) {
        return "failing: " + String.join(", ", report.checks().entrySet().stream()
                .filter(check -> !check.getValue().up()).map(check -> check.getKey()).toList());
    }
}
