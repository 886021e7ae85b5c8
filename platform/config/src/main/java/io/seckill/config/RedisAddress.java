package io.seckill.config;

import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where Redis is ({@value #URL}) and whether it is one node or a cluster ({@value #TOPOLOGY}). A single node's URL is
 * {@code redis://[user:password@]host:port[/database]} ({@code rediss://} for TLS); a cluster's names one or more seed
 * nodes, {@code redis://[user:password@]host:port[,host:port...]}, from which the client learns every primary and
 * replica (a managed cluster's configuration endpoint is one seed), and has no database: a cluster has only database 0.
 */
public record RedisAddress(Topology topology, String url) {

    public static final String URL = "SECKILL_REDIS_URL";
    public static final String TOPOLOGY = "SECKILL_REDIS_TOPOLOGY";

    /** One node (with replicas or Sentinel behind one address, if any), or Redis Cluster. */
    public enum Topology {
        SINGLE,
        CLUSTER;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A seed or the node: host and port. */
    public record Node(String host, int port) {
    }

    /** @throws IllegalArgumentException naming the setting, for a topology or URL it cannot use */
    public RedisAddress {
        parse(topology, url);
    }

    public static RedisAddress from(Env env) {
        String value = env.string(TOPOLOGY, "single");
        Topology topology = switch (value.toLowerCase(Locale.ROOT)) {
            case "single" -> Topology.SINGLE;
            case "cluster" -> Topology.CLUSTER;
            default -> throw new IllegalArgumentException(TOPOLOGY + " must be single or cluster, was '" + value + "'");
        };
        return new RedisAddress(topology, env.string(URL, "redis://localhost:6379"));
    }

    public static RedisAddress single(String url) {
        return new RedisAddress(Topology.SINGLE, url);
    }

    /** The node, or the cluster's seeds, in the URL's order. */
    public List<Node> nodes() {
        return parse(topology, url).nodes();
    }

    /**
     * The URL with one node only (the first seed), userinfo, scheme and database kept: what a URI-based client takes.
     */
    public URI firstNodeUri() {
        Parsed parsed = parse(topology, url);
        Node first = parsed.nodes().get(0);
        return URI.create(
                parsed.scheme() + "://" + parsed.userInfo() + first.host() + ":" + first.port() + parsed.path());
    }

    /** Whether the URL names a user and a password ({@code USER:PASSWORD@}), both non-empty: an ACL user of its own. */
    public boolean namesUserAndPassword() {
        String userInfo = parse(topology, url).userInfo();
        int colon = userInfo.indexOf(':');
        // userInfo ends with its '@'
        return colon > 0 && colon < userInfo.length() - 2;
    }

    /** The password the URL names ({@code USER:PASSWORD@}, decoded), if it names one. */
    public Optional<String> password() {
        String userInfo = parse(topology, url).userInfo();
        int colon = userInfo.indexOf(':');
        // userInfo ends with its '@'
        return colon < 0 || colon >= userInfo.length() - 2
                ? Optional.empty()
                : Optional.of(URLDecoder.decode(
                        userInfo.substring(colon + 1, userInfo.length() - 1), StandardCharsets.UTF_8));
    }

    /**
     * The same servers reached as the ACL user {@code user} with {@code password} (URL-encoded into the URL): what a
     * service gets on development servers that made its user.
     */
    public RedisAddress as(String user, String password) {
        Parsed parsed = parse(topology, url);
        return new RedisAddress(
                topology,
                parsed.scheme() + "://" + URLEncoder.encode(user, StandardCharsets.UTF_8) + ":"
                        + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@"
                        + parsed.authority().substring(parsed.userInfo().length()) + parsed.path());
    }

    /** Whether the servers are reached over TLS ({@code rediss://}). */
    public boolean tls() {
        return parse(topology, url).scheme().equals("rediss");
    }

    /** The URL with its password replaced, for logs and banners. */
    public String redacted() {
        Parsed parsed = parse(topology, url);
        String userInfo = parsed.userInfo().isEmpty() ? "" : parsed.userInfo().contains(":")
                ? parsed.userInfo().substring(0, parsed.userInfo().indexOf(':')) + ":***@" : "***@";
        return parsed.scheme() + "://" + userInfo
                + parsed.authority().substring(parsed.userInfo().length()) + parsed.path();
    }

    @Override
    public String toString() {
        return redacted() + " (" + topology.label() + ")";
    }

    private record Parsed(String scheme, String userInfo, String authority, String path, List<Node> nodes) {
    }

    private static Parsed parse(Topology topology, String url) {
        if (topology == null || url == null) {
            throw new IllegalArgumentException(TOPOLOGY + " and " + URL + " must both be given");
        }
        int schemeEnd = url.indexOf("://");
        String scheme = schemeEnd < 0 ? "" : url.substring(0, schemeEnd);
        if (!scheme.equals("redis") && !scheme.equals("rediss")) {
            throw new IllegalArgumentException(
                    URL + " must start with redis:// or rediss://, was '" + redactedPrefix(url) + "'");
        }
        String rest = url.substring(schemeEnd + 3);
        int pathAt = rest.indexOf('/');
        String authority = pathAt < 0 ? rest : rest.substring(0, pathAt);
        String path = pathAt < 0 ? "" : rest.substring(pathAt);
        int at = authority.lastIndexOf('@');
        String userInfo = at < 0 ? "" : authority.substring(0, at + 1);
        List<Node> nodes = new ArrayList<>();
        for (String hostPort : authority.substring(at + 1).split(",", -1)) {
            nodes.add(node(hostPort));
        }
        switch (topology) {
            case SINGLE -> {
                if (nodes.size() > 1) {
                    throw new IllegalArgumentException(URL + " names " + nodes.size() + " nodes; set " + TOPOLOGY
                            + "=cluster for a Redis Cluster's seeds");
                }
            }
            case CLUSTER -> {
                if (!path.isEmpty() && !path.equals("/") && !path.equals("/0")) {
                    throw new IllegalArgumentException(
                            URL + " names database " + path.substring(1) + "; a Redis Cluster has only database 0");
                }
            }
        }
        return new Parsed(scheme, userInfo, authority, path, List.copyOf(nodes));
    }

    private static Node node(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException(URL + " must name each node as host:port, was '" + hostPort + "'");
        }
        try {
            int port = Integer.parseInt(hostPort.substring(colon + 1));
            if (port < 1 || port > 65_535) {
                throw new NumberFormatException();
            }
            return new Node(hostPort.substring(0, colon), port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(URL + " has no port number in '" + hostPort + "'", e);
        }
    }

    /** What the error may show of a URL that could not be parsed: nothing past the scheme's first characters. */
    private static String redactedPrefix(String url) {
        return url.length() <= 8 ? url : url.substring(0, 8) + "...";
    }
}
