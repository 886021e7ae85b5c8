package io.seckill.ingress.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.jetty.util.InetAddressSet;

/**
 * The proxies whose {@code X-Forwarded-For} is believed ({@value #SETTING}: addresses and CIDR ranges),
 * and the client address that follows from it: a request from anywhere else is counted by its socket's
 * address, whatever it claims; one through trusted proxies by the rightmost address in the header that
 * is not one of them (each proxy appends the peer it saw, so everything left of that was written by the
 * client and proves nothing).
 */
public final class TrustedProxies {

    public static final String SETTING = "SECKILL_TRUSTED_PROXIES";
    /** An IP literal (v4 dotted, or v6 with a colon), so that parsing one never asks DNS. */
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

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
                throw new IllegalArgumentException(SETTING + " takes IP addresses and CIDR ranges, was '" + trimmed + "'");
            }
            entries.add(trimmed);
        }
        try {
            return new TrustedProxies(entries);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(SETTING + " takes IP addresses and CIDR ranges, was '" + String.join(",", entries) + "'", e);
        }
    }

    /**
     * @param peer the socket's remote address
     * @param forwardedFor the request's {@code X-Forwarded-For}, or null
     */
    public String clientAddress(String peer, String forwardedFor) {
        if (forwardedFor == null || forwardedFor.isBlank() || !trusted(peer)) {
            return peer;
        }
        String[] hops = COMMA.split(forwardedFor, -1);
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
        return hops[0].trim();
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
