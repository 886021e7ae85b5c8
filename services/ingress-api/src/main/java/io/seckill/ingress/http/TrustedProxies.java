package io.seckill.ingress.http;

import io.javalin.http.Context;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.util.InetAddressSet;

/**
 * The proxies whose {@code X-Forwarded-For} is believed ({@value #SETTING}: addresses and CIDR ranges),
 * and the client address that follows from it: a request from anywhere else is counted by its socket's
 * address, whatever it claims; one through trusted proxies by the rightmost address in the header that
 * is not one of them (each proxy appends the peer it saw, so everything left of that was written by the
 * client and proves nothing). The header's every line counts, in order, as one list (a proxy may add a line
 * of its own instead of appending to the client's). When every address in it is a trusted proxy, nothing in
 * it names a client outside them, and the request is counted by its socket's address.
 *
 * <p>Limits count an IPv6 client by its /64, the block one subscriber is given and rotates through at will.
 */
public final class TrustedProxies {

    public static final String SETTING = "SECKILL_TRUSTED_PROXIES";
    public static final String HEADER = "X-Forwarded-For";
    /** An IP literal (v4 dotted, or v6 with a colon), so that parsing one never asks DNS. */
    private static final Pattern IP_LITERAL =
            Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private static final Pattern COMMA = Pattern.compile(",");

    private final InetAddressSet proxies = new InetAddressSet();
    private final List<String> listed;

    private TrustedProxies(List<String> listed) {
        this.listed = List.copyOf(listed);
        listed.forEach(proxies::add);
    }

    /**
     * @param list comma-separated addresses and CIDR ranges, e.g. {@code 10.0.0.0/8, 192.168.1.7}; blank for none
     * @throws IllegalArgumentException naming the setting, for an entry that is neither
     */
    public static TrustedProxies parse(String list) {
        List<String> entries = new ArrayList<>();
        for (String entry : list == null ? new String[0] : COMMA.split(list)) {
            String trimmed = entry.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            String address = trimmed.contains("/") ? trimmed.substring(0, trimmed.indexOf('/')) : trimmed;
            if (literal(address).isEmpty()) {
                throw new IllegalArgumentException(
                        SETTING + " takes IP addresses and CIDR ranges, was '" + trimmed + "'");
            }
            entries.add(trimmed);
        }
        try {
            return new TrustedProxies(entries);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    SETTING + " takes IP addresses and CIDR ranges, was '" + String.join(",", entries) + "'", e);
        }
    }

    /** The client address of a request: its socket's, or what its trusted proxies say in every X-Forwarded-For line. */
    public String clientAddress(Context ctx) {
        // Most requests carry no such header (no proxy in front): no list made for them.
        return ctx.header(HEADER) == null
                ? ctx.ip()
                : clientAddress(ctx.ip(), Collections.list(ctx.req().getHeaders(HEADER)));
    }

    /**
     * @param peer the socket's remote address
     * @param forwardedFor the request's {@code X-Forwarded-For} lines, in order
     */
    public String clientAddress(String peer, List<String> forwardedFor) {
        if (forwardedFor.isEmpty() || !trusted(peer)) {
            return peer;
        }
        String[] hops = COMMA.split(String.join(",", forwardedFor), -1);
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].trim();
            if (literal(hop).isEmpty()) {
                // A trusted proxy writes addresses; anything else here is not one to count by.
                return peer;
            }
            if (!trusted(hop)) {
                return hop;
            }
        }
        return peer;
    }

    /**
     * What a limit counts {@code address} (a client address) by: an IPv4 address itself, an IPv6 address's /64 as
     * {@code 2001:db8:1:2::/64}. An IPv4 address in IPv6 form counts as the IPv4 address.
     */
    public static String countedAs(String address) {
        if (address.indexOf(':') < 0) {
            // An IPv4 address (or no address at all) is counted as it is written.
            return address;
        }
        Optional<InetAddress> parsed = literal(address);
        if (parsed.isEmpty() || !(parsed.get() instanceof Inet6Address)) {
            return parsed.map(InetAddress::getHostAddress).orElse(address);
        }
        byte[] bytes = parsed.get().getAddress();
        StringBuilder prefix = new StringBuilder();
        for (int group = 0; group < 4; group++) {
            prefix.append(Integer.toHexString(((bytes[2 * group] & 0xFF) << 8) | (bytes[2 * group + 1] & 0xFF)))
                    .append(':');
        }
        return prefix.append(":/64").toString();
    }

    private boolean trusted(String address) {
        return literal(address).map(proxies::test).orElse(false);
    }

    private static Optional<InetAddress> literal(String address) {
        if (!IP_LITERAL.matcher(address).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return listed.isEmpty() ? "none" : String.join(",", listed);
    }
}
